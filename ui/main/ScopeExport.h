// "Save scopes...": the current frame's scopes (the CIE chromaticity diagram and the gamut display
// in its panel's mode among them) as PNG files, drawn by scope/ScopeRender at
// the size chosen (the images headless `cudascope export` writes), plus the picture, the
// preview when one is selected, and a composite image of the window as its panels show it.
// Files are named by source and frame, <source>-<NNNNNN>-<scope>.png (clip-000042-waveform.png),
// so that frames of different sources do not meet; a set whose names are taken gets the
// first free number after the frame (clip-000042-2-waveform.png ...): nothing is overwritten.
#pragma once
#include <QImage>
#include <QString>
#include <QStringList>

#include "core/Engine.h"
#include "core/Frame.h"
#include "core/Status.h"

namespace cs {

struct ScopeExportRequest {
    QString folder;
    QString source;              // the input (a path, "pattern:bars", a URL): its base name starts the file names
    int64_t frameNumber = 0;     // after the source's name, as headless export numbers frames
    std::string timecode;        // the frame's timecode as shown ("10:00:04:02"), after the number ("" : none)
    ScopeSpec spec;              // modes, gains and override as shown; sizes set from below
    int width = 1024, height = 540;   // waveform/parade/histogram; the vectorscope is height x height
    QImage composite;            // the window's scope panels (empty: not written)
};

// The file name stem of `source`: a file's base name without its extension, else the input
// with every character other than letters, digits, '.', '_' and '-' made '-' ("pattern-bars").
QString exportStem(const QString& source);

// Runs `engine` once more on the frame with every scope on, and writes the files.
// Returns the paths written.
Result<QStringList> saveScopes(Engine& engine, const FrameView& frame, const ScopeExportRequest& request);

}  // namespace cs
