// Errors as values: every fallible call in cudascope returns a Status or a Result<T>
// carrying one sentence for the user, never an exception through a C callback.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace cs {

class [[nodiscard]] Status {
public:
    Status() = default;                                   // success
    static Status error(std::string message) { Status s; s.message_ = std::move(message); s.failed_ = true; return s; }
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const std::string& message() const { return message_; }
private:
    std::string message_;
    bool failed_ = false;
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}             // NOLINT: implicit by design
    Result(Status error) : v_(std::move(error)) {}       // NOLINT: must be a failed Status
    bool ok() const { return std::holds_alternative<T>(v_); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(v_); }
    const T& value() const { return std::get<T>(v_); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const std::string& message() const { static const std::string none; return ok() ? none : std::get<Status>(v_).message(); }
    Status status() const { return ok() ? Status{} : std::get<Status>(v_); }
private:
    std::variant<T, Status> v_;
};

}  // namespace cs
