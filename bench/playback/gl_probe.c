/* gl_probe: which OpenGL set-ups give a context on this display and machine, and whose.
 * Prints, for GLX on $DISPLAY (server and client vendors, FBConfigs, a 3.3 core context on a
 * window) and for EGL (X11 platform, default display, each EGL device), the renderer
 * string or the step that failed. Built and carried by make_gui_bundle.py; run by
 * gpu-playback.sh before the benchmarks, to say why Qt did or did not get an NVIDIA context.
 *   gl_probe            (exit 0 always: it reports, it does not judge) */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <string.h>

typedef GLXContext (*CreateContextAttribs)(Display*, GLXFBConfig, GLXContext, Bool, const int*);

static void probeGlx(void) {
    Display* dpy = XOpenDisplay(NULL);
    if (!dpy) {
        printf("glx: cannot open display %s\n", XDisplayName(NULL));
        return;
    }
    int errorBase = 0, eventBase = 0, major = 0, minor = 0;
    if (!glXQueryExtension(dpy, &errorBase, &eventBase)) {
        printf("glx: the X server has no GLX extension\n");
        XCloseDisplay(dpy);
        return;
    }
    glXQueryVersion(dpy, &major, &minor);
    const int screen = DefaultScreen(dpy);
    const char* serverVendor = glXQueryServerString(dpy, screen, GLX_VENDOR);
    const char* clientVendor = glXGetClientString(dpy, GLX_VENDOR);
    printf("glx: version %d.%d; server vendor %s; client vendor %s\n", major, minor, serverVendor ? serverVendor : "?",
           clientVendor ? clientVendor : "?");
    int count = 0;
    GLXFBConfig* all = glXGetFBConfigs(dpy, screen, &count);
    printf("glx: %d FBConfigs\n", count);
    if (all) XFree(all);
    const int attribs[] = {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_RED_SIZE, 1, GLX_GREEN_SIZE, 1,
                           GLX_BLUE_SIZE, 1, None};
    GLXFBConfig* configs = glXChooseFBConfig(dpy, screen, attribs, &count);
    printf("glx: %d FBConfigs for an RGB window\n", configs ? count : 0);
    if (!configs || count == 0) {
        XCloseDisplay(dpy);
        return;
    }
    XVisualInfo* vi = glXGetVisualFromFBConfig(dpy, configs[0]);
    CreateContextAttribs create = (CreateContextAttribs)glXGetProcAddressARB((const GLubyte*)"glXCreateContextAttribsARB");
    const int ctxAttribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3, GLX_CONTEXT_PROFILE_MASK_ARB,
                              GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
    GLXContext ctx = create ? create(dpy, configs[0], NULL, True, ctxAttribs) : NULL;
    if (!ctx || !vi) {
        printf("glx: no 3.3 core context (visual %s)\n", vi ? "found" : "missing");
    } else {
        XSetWindowAttributes swa;
        memset(&swa, 0, sizeof swa);
        swa.colormap = XCreateColormap(dpy, RootWindow(dpy, screen), vi->visual, AllocNone);
        Window win = XCreateWindow(dpy, RootWindow(dpy, screen), 0, 0, 64, 64, 0, vi->depth, InputOutput, vi->visual,
                                   CWColormap, &swa);
        if (glXMakeContextCurrent(dpy, win, win, ctx)) {
            printf("glx: context %s: %s / %s / %s\n", glXIsDirect(dpy, ctx) ? "direct" : "indirect",
                   (const char*)glGetString(GL_VENDOR), (const char*)glGetString(GL_RENDERER),
                   (const char*)glGetString(GL_VERSION));
            glXMakeContextCurrent(dpy, None, None, NULL);
        } else {
            printf("glx: context made, but not current on a window\n");
        }
        glXDestroyContext(dpy, ctx);
        XDestroyWindow(dpy, win);
    }
    if (vi) XFree(vi);
    XFree(configs);
    XCloseDisplay(dpy);
}

static void probeEglDisplay(const char* what, EGLDisplay dpy) {
    EGLint major = 0, minor = 0;
    if (dpy == EGL_NO_DISPLAY) {
        printf("egl %s: no display (error 0x%x)\n", what, eglGetError());
        return;
    }
    if (!eglInitialize(dpy, &major, &minor)) {
        printf("egl %s: eglInitialize failed (error 0x%x)\n", what, eglGetError());
        return;
    }
    printf("egl %s: EGL %d.%d, vendor %s\n", what, major, minor, eglQueryString(dpy, EGL_VENDOR));
    const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    eglBindAPI(EGL_OPENGL_API);
    if (eglChooseConfig(dpy, attribs, &config, 1, &n) && n > 0) {
        const EGLint ctxAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
        EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctxAttribs);
        const EGLint pb[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
        EGLSurface surface = eglCreatePbufferSurface(dpy, config, pb);
        if (ctx != EGL_NO_CONTEXT && surface != EGL_NO_SURFACE && eglMakeCurrent(dpy, surface, surface, ctx))
            printf("egl %s: pbuffer context: %s / %s\n", what, (const char*)glGetString(GL_RENDERER),
                   (const char*)glGetString(GL_VERSION));
        else
            printf("egl %s: no pbuffer context (error 0x%x)\n", what, eglGetError());
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    } else {
        printf("egl %s: no OpenGL pbuffer config\n", what);
    }
    eglTerminate(dpy);
}

int main(void) {
    probeGlx();
    PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplay =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    Display* x = XOpenDisplay(NULL);
    if (getPlatformDisplay && x) probeEglDisplay("x11", getPlatformDisplay(EGL_PLATFORM_X11_KHR, x, NULL));
    probeEglDisplay("default", eglGetDisplay(EGL_DEFAULT_DISPLAY));
    PFNEGLQUERYDEVICESEXTPROC queryDevices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (queryDevices && getPlatformDisplay && queryDevices(8, devices, &count)) {
        printf("egl: %d devices\n", count);
        for (EGLint i = 0; i < count; ++i) {
            char what[32];
            snprintf(what, sizeof what, "device %d", (int)i);
            probeEglDisplay(what, getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL));
        }
    }
    if (x) XCloseDisplay(x);
    return 0;
}
