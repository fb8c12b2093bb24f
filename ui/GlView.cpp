// GL view base: loader, resource lifetime, failure reporting.
#include "GlView.h"

#include <QOpenGLContext>

#include "render/GlObjects.h"
#include "render/ImageRenderer.h"

namespace cs {

GlView::GlView(QWidget* parent) : QOpenGLWidget(parent) {}

int GlView::pixelWidth() const { return int(std::lround(width() * devicePixelRatioF())); }
int GlView::pixelHeight() const { return int(std::lround(height() * devicePixelRatioF())); }

void GlView::initializeGL() {
    QObject::disconnect(contextConnection_);
    contextConnection_ = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &GlView::onContextDestroyed,
                                 Qt::DirectConnection);
    Status s = gl::initLoader();
    if (s) s = createGl();
    ready_ = s.ok();
    if (!ready_) {
        releaseGl();
        error_ = QString::fromStdString(s.message());
        emit glFailed(error_);
        return;
    }
    error_.clear();
    emit glInitialised();
}

void GlView::paintGL() {
    const int w = pixelWidth(), h = pixelHeight();
    if (!ready_) {
        // A dark field rather than garbage; the error is shown by the window.
        gl::ImageRenderer::clear(w, h, 0.08f);
        return;
    }
    paintView(w, h);
}

void GlView::onContextDestroyed() {
    if (!ready_) return;
    makeCurrent();
    releaseGl();
    doneCurrent();
    ready_ = false;
}

void GlView::teardownGl() {
    QObject::disconnect(contextConnection_);
    if (!ready_) return;
    makeCurrent();
    releaseGl();
    doneCurrent();
    ready_ = false;
}

}  // namespace cs
