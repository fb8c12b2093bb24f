// Base of the OpenGL views (the picture viewer and the scope panels): loads GL entry
// points through GLEW on each new context, and ties the subclass's GL resources to the
// context's lifetime.
//
// Each view draws into its own native window (a QOpenGLWindow embedded with
// QWidget::createWindowContainer) that presents itself, rather than a QOpenGLWidget:
// QOpenGLWidgets are drawn into framebuffer objects that Qt then composites with the rest
// of the window on every repaint, and with software OpenGL (Mesa's llvmpipe, no GPU) that
// composite of a 1920x1080 window costs about 30 ms of CPU per frame whatever the views
// draw; native windows cost only what they draw. The surface takes no input (it is
// transparent for it), so the mouse, the keyboard focus and the window's shortcuts stay
// with the widgets: this class receives the events as any widget does.
//
// A dock that floats or re-docks keeps its surface and context; when a context goes away
// the resources are released on its aboutToBeDestroyed and created again in the next
// context's initialisation.
#pragma once
#include <QImage>
#include <QString>
#include <QWidget>

#include "core/Status.h"

namespace cs {

class GlView : public QWidget {
    Q_OBJECT
public:
    // vsync: the surface's presentation waits for the display's refresh (the viewer); the
    // scope panels present at once, so several surfaces never wait for one refresh each.
    explicit GlView(QWidget* parent = nullptr, bool vsync = false);
    ~GlView() override;

    bool glReady() const { return ready_; }
    const QString& glError() const { return error_; }
    // Releases the GL resources now (the owner is going away; its engine must let go first).
    void releaseGlResources() { teardownGl(); }
    // Size of the framebuffer in device pixels.
    int pixelWidth() const;
    int pixelHeight() const;

    // Schedules a repaint of the GL surface (hides QWidget::update, which would repaint only
    // the widget under the surface).
    void update();
    // Makes this view's context current (for GL work outside paintView), and releases it.
    void makeCurrent();
    void doneCurrent();
    // What the view shows, drawn anew into an offscreen framebuffer (device pixels).
    QImage grabFramebuffer();

    // For a host that owns the current GL context itself where no window system gives one
    // (playback_bench --no-window on an EGL device): creates the view's GL resources in that
    // context, draws the view into its bound framebuffer, and releases the resources. The
    // view's own surface is never shown then.
    Status createGlInCurrentContext();
    void paintInCurrentContext(int w, int h) { paintView(w, h); }
    void releaseGlInCurrentContext();

signals:
    void glFailed(const QString& message);
    void glInitialised();

protected:
    // Called with this view's context current, after the loader succeeded.
    virtual Status createGl() = 0;
    virtual void releaseGl() = 0;
    // Draws the whole view into the bound framebuffer, w x h device pixels.
    virtual void paintView(int w, int h) = 0;
    // Subclasses call this from their destructor, while their GL members still exist.
    void teardownGl();

    // Paints the surface's picture into grabs of the widget (QWidget::grab, the window's
    // screenshots): on screen the surface covers this widget.
    void paintEvent(QPaintEvent* e) override;

private:
    class Surface;
    friend class Surface;
    void initialiseGl();
    void paintGl();
    void onContextDestroyed();

    Surface* surface_ = nullptr;     // owned by container_
    QWidget* container_ = nullptr;
    bool ready_ = false;
    bool paintPosted_ = false;   // a paint of the surface is waiting in the event queue
    QString error_;
    QMetaObject::Connection contextConnection_;
};

}  // namespace cs
