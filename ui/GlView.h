// Base of the OpenGL views (the picture viewer and the scope panels): loads GL entry
// points through GLEW on each new context, and ties the subclass's GL resources to the
// context's lifetime. A dock that floats or re-docks gets a new context: the resources are
// released on the old context's aboutToBeDestroyed and created again in initializeGL.
#pragma once
#include <QOpenGLWidget>
#include <QString>

#include "core/Status.h"

namespace cs {

class GlView : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit GlView(QWidget* parent = nullptr);

    bool glReady() const { return ready_; }
    const QString& glError() const { return error_; }
    // Releases the GL resources now (the owner is going away; its engine must let go first).
    void releaseGlResources() { teardownGl(); }
    // Size of the framebuffer in device pixels.
    int pixelWidth() const;
    int pixelHeight() const;

signals:
    void glFailed(const QString& message);
    void glInitialised();

protected:
    // Called with this view's context current, after the loader succeeded.
    virtual Status createGl() = 0;
    virtual void releaseGl() = 0;
    // Draws the whole view; the widget's framebuffer is bound, w x h device pixels.
    virtual void paintView(int w, int h) = 0;
    // Subclasses call this from their destructor, while their GL members still exist.
    void teardownGl();

    void initializeGL() final;
    void paintGL() final;

private:
    void onContextDestroyed();
    bool ready_ = false;
    QString error_;
    QMetaObject::Connection contextConnection_;
};

}  // namespace cs
