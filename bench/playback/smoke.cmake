# playback_bench_smoke: run by CTest as `cmake -DBENCH=... -DMISSING=... -P smoke.cmake`.
# 1. One second of a small test pattern in the window: exit 0 and one table row naming the
#    input, with every column filled. 2. The same with --no-window. 3. A file that does not
#    exist: exit 1 and one line naming it.
# Exit 77 from the bench (no display / no OpenGL 3.3) prints SKIPPED: (the test is skipped).

cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND ${BENCH} pattern:bars:640x360 --seconds 1 --warmup 0.5 --window 1280x720
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 77)
  message("SKIPPED: ${err}")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "playback_bench on a pattern exited ${rc}:\n${out}\n${err}")
endif()
# | input | WxH fmt | fps | engine | decoder | seconds | presented | dropped | fps | 6 figures |
set(num "[0-9]+(\\.[0-9]+)?")
set(row "\\| pattern:bars:640x360 \\| 640x360 [a-z0-9]+ \\| ${num} \\| [a-z]+ \\| [^|]+ \\| ${num} \\| [0-9]+ \\| [0-9]+ \\| ${num} \\| ${num} \\| ${num} \\| ${num} \\| ${num} \\| ${num} \\| -?${num} \\|")
if(NOT out MATCHES "${row}")
  message(FATAL_ERROR "playback_bench printed no complete row for the pattern:\n${out}\n${err}")
endif()
# At 1x for a second, frames must have been presented (the count is the 7th column).
string(REGEX MATCH "${row}" line "${out}")
string(REPLACE "|" ";" cells "${line}")
list(GET cells 7 presented)
string(STRIP "${presented}" presented)
if(presented LESS 1)
  message(FATAL_ERROR "playback_bench presented no frames in a second of playback:\n${out}")
endif()
message("${out}")

# 2. The same without a window (EGL device pbuffer): the row again, unless EGL has no
#    OpenGL 3.3 context here (77: that part is left out).
execute_process(COMMAND ${BENCH} pattern:bars:640x360 --seconds 1 --warmup 0.5 --no-window
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 77)
  message("--no-window not checked: ${err}")
elseif(NOT rc EQUAL 0 OR NOT out MATCHES "${row}")
  message(FATAL_ERROR "playback_bench --no-window on a pattern exited ${rc} without a complete row:\n${out}\n${err}")
endif()

execute_process(COMMAND ${BENCH} ${MISSING} --seconds 1 --warmup 0
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "playback_bench on a missing file exited ${rc} (wanted 1):\n${out}\n${err}")
endif()
# Qt may add its own lines (XDG_RUNTIME_DIR...): the bench's is the one line it starts with its name.
string(REGEX MATCHALL "(^|\n)playback_bench: [^\n]*" lines "${err}")
list(LENGTH lines count)
if(NOT count EQUAL 1 OR NOT lines MATCHES "no-such-clip\\.mp4: No such file")
  message(FATAL_ERROR "playback_bench on a missing file: wanted one line naming the file and the reason, got:\n${err}")
endif()
