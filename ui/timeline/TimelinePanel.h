// The Timeline dock's contents: the view (TimelineView.h) filled by the background pass
// (TimelinePass.h) or a qc report beside the file, with a button for the whole file.
// Files only: a live source or a test pattern has no whole to graph.
//
// Threading: GUI thread.
#pragma once
#include <QWidget>

#include <string>

#include "ui/timeline/TimelineData.h"
#include "ui/timeline/TimelinePass.h"
#include "ui/timeline/TimelineView.h"

class QLabel;

namespace cs::timeline {

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    // A source opened: a local file starts filling; anything else clears the panel.
    void open(const QString& input, bool isFile, const std::string& engine);
    void clear();
    void setPlayhead(double seconds) { view_->setPlayhead(seconds); }

    const TimelineData& data() const { return data_; }
    TimelineView* view() { return view_; }
    bool passRunning() const { return pass_.running(); }
    // Where the values came from, or why there are none ("" while a pass runs).
    const QString& status() const { return status_; }

signals:
    void seekRequested(double seconds);
    void filled();   // the data is whole

private:
    void showProgress();

    TimelineData data_;
    TimelinePass pass_;
    TimelineView* view_;
    QString input_, status_;
};

}  // namespace cs::timeline
