// "Save scopes...": the current frame's scopes as PNG files, drawn by core/ScopeRender at
// the size chosen (the images headless `cudascope export` writes, named as it names
// them: NNNNNN-histogram.png ...), plus the picture, the preview when one is selected,
// and a composite image of the window's scope panels.
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
    int64_t frameNumber = 0;     // the file name prefix, as headless export numbers frames
    ScopeSpec spec;              // modes, gains and override as shown; sizes set from below
    int width = 1024, height = 540;   // waveform/parade/histogram; the vectorscope is height x height
    QImage composite;            // the window's scope panels (empty: not written)
};

// Runs `engine` once more on the frame with every scope on, and writes the files.
// Returns the paths written.
Result<QStringList> saveScopes(Engine& engine, const FrameView& frame, const ScopeExportRequest& request);

}  // namespace cs
