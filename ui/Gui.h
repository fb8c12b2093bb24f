// The desktop application's entry point, called by app/main.cpp when no subcommand is
// given: `cudascope`, `cudascope FILE`, `cudascope pattern:bars`.
#pragma once
#include <string>
#include <vector>

namespace cs {

// input: "" opens the colour bars (pattern:bars); a file path; or any openSource input.
// Returns the process exit code: 1, with one line on stderr, where there is no display
// (none set, or the one set cannot be opened) instead of Qt's abort.
// compare: "" or a second input opened as B of the compare mode (ui/compare/Compare.h), in a wipe.
int runGui(int argc, char** argv, const std::string& input, const std::string& compare = {});
// The monitoring wall (ui/wall/WallWindow.h) of `inputs`, or of the wall file `wallFile` when
// given (a file that cannot be read: one line on stderr, exit 1). Display as runGui.
int runWallGui(int argc, char** argv, const std::vector<std::string>& inputs, const std::string& wallFile);

// What runGui does around the window, for tests that build their own QApplication:
// the OpenGL format (3.3 core, vsync) and context sharing, set BEFORE QApplication exists.
void prepareGuiApplication();
// Names, icon and dark theme, once the QApplication exists.
void styleGuiApplication();

}  // namespace cs
