// GL view base: a native GL surface under a widget, the loader, resource lifetime, failure
// reporting (see GlView.h).
#include "GlView.h"

#include <QCoreApplication>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLWindow>
#include <QPaintEvent>
#include <QPainter>
#include <QVBoxLayout>

#include <cmath>

#include "render/GlObjects.h"
#include "render/ImageRenderer.h"

namespace cs {

// The native window the view draws into. It takes no input: events reach the widgets.
class GlView::Surface : public QOpenGLWindow {
public:
    Surface(GlView* owner, bool vsync) : owner_(owner) {
        setFlag(Qt::WindowTransparentForInput);
        setFlag(Qt::WindowDoesNotAcceptFocus);
        QSurfaceFormat f = QSurfaceFormat::defaultFormat();
        f.setSwapInterval(vsync ? 1 : 0);
        setFormat(f);
    }

protected:
    void initializeGL() override { owner_->initialiseGl(); }
    void paintGL() override { owner_->paintGl(); }
    bool event(QEvent* e) override {
        // A posted paint is delivered now (whether or not the surface can draw): later
        // updates post a new one.
        if (e->type() == QEvent::Paint) owner_->paintPosted_ = false;
        // A paint that arrives when the surface has no platform window (it was destroyed or
        // not yet made again: a window recreated, a hidden top level) is dropped: QOpenGLWindow
        // would make its context current on no surface and dereference a null current context.
        if ((e->type() == QEvent::Paint || e->type() == QEvent::UpdateRequest) && !handle()) return true;
        return QOpenGLWindow::event(e);
    }

private:
    GlView* owner_;
};

GlView::GlView(QWidget* parent, bool vsync) : QWidget(parent) {
    surface_ = new Surface(this, vsync);
    container_ = QWidget::createWindowContainer(surface_, this);
    container_->setAttribute(Qt::WA_TransparentForMouseEvents);
    container_->setFocusPolicy(Qt::NoFocus);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(container_);
}

GlView::~GlView() = default;

int GlView::pixelWidth() const { return int(std::lround(width() * devicePixelRatioF())); }
int GlView::pixelHeight() const { return int(std::lround(height() * devicePixelRatioF())); }

void GlView::update() {
    // QWindow::update paints after a platform timer (5 ms on xcb), per surface: a paint is
    // posted instead, so a new frame reaches the screen as soon as the event loop is free;
    // the calls before it runs share it. A surface not on screen paints when it is exposed.
    if (!surface_->isExposed()) {
        surface_->update();
        return;
    }
    if (paintPosted_) return;
    paintPosted_ = true;
    QCoreApplication::postEvent(surface_, new QPaintEvent(QRect(QPoint(0, 0), surface_->size())));
}

void GlView::makeCurrent() { surface_->makeCurrent(); }
void GlView::doneCurrent() { surface_->doneCurrent(); }

void GlView::initialiseGl() {
    QObject::disconnect(contextConnection_);
    contextConnection_ = connect(surface_->context(), &QOpenGLContext::aboutToBeDestroyed, this,
                                 &GlView::onContextDestroyed, Qt::DirectConnection);
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

void GlView::paintGl() {
    const qreal dpr = surface_->devicePixelRatio();
    const int w = int(std::lround(surface_->width() * dpr)), h = int(std::lround(surface_->height() * dpr));
    if (!ready_) {
        // A dark field rather than garbage; the error is shown by the window.
        gl::ImageRenderer::clear(w, h, 0.08f);
        return;
    }
    paintView(w, h);
}

Status GlView::createGlInCurrentContext() {
    Status s = createGl();
    if (!s) releaseGl();
    return s;
}

void GlView::releaseGlInCurrentContext() { releaseGl(); }

QImage GlView::grabFramebuffer() {
    const int w = pixelWidth(), h = pixelHeight();
    if (!ready_ || w <= 0 || h <= 0) return {};
    makeCurrent();
    QImage image;
    {
        QOpenGLFramebufferObject target(w, h);
        if (target.bind()) {
            paintView(w, h);
            image = target.toImage();
            target.release();
        }
    }
    doneCurrent();
    image.setDevicePixelRatio(devicePixelRatioF());
    return image;
}

void GlView::paintEvent(QPaintEvent*) {
    if (!ready_) return;
    const QImage image = grabFramebuffer();
    if (image.isNull()) return;
    QPainter painter(this);
    painter.drawImage(QRectF(rect()), image);
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
