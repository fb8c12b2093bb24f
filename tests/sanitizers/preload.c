// Preloaded (LD_PRELOAD, the test presets in CMakePresets.json) into the test programs of
// the sanitizer builds, to keep the sanitizers' view of third-party libraries true. Built
// without sanitizers: it runs ahead of their runtimes.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/types.h>

#if defined(CS_PRELOAD_ASAN)
// dlclose() leaves every library mapped. Mesa unloads its driver (swrast_dri.so) when the X
// display closes; LeakSanitizer, which looks at exit, then no longer sees the driver's
// globals, reports what they pointed to as leaked, and cannot name the code that allocated
// it (its frames lie in unmapped memory).
int dlclose(void* handle);

int dlclose(void* handle) {
    (void)handle;
    return 0;
}
#endif

#if defined(CS_PRELOAD_TSAN)
// A vfork-style clone() (CLONE_VM | CLONE_VFORK) becomes a fork-style one. QProcess starts
// its children that way (Qt's forkfd); ThreadSanitizer's clone() interceptor then runs its
// after-fork code in the child, which shares the parent's memory: the parent's main thread is
// left ignoring its own synchronisation (every later hand-over to another thread reads as a
// race) and TSan believes the parent is a forked child. With its own copy of the memory the
// child is what TSan expects. (posix_spawn uses glibc's internal clone and is not affected.)
enum { kCloneVm = 0x00000100, kCloneVfork = 0x00004000 };
typedef int (*CloneFn)(int (*)(void*), void*, int, void*, pid_t*, void*, pid_t*);

int clone(int (*fn)(void*), void* stack, int flags, void* arg, pid_t* parentTid, void* tls, pid_t* childTid);

int clone(int (*fn)(void*), void* stack, int flags, void* arg, pid_t* parentTid, void* tls, pid_t* childTid) {
    static CloneFn next = NULL;
    if (!next) next = (CloneFn)dlsym(RTLD_NEXT, "clone");
    if ((flags & (kCloneVm | kCloneVfork)) == (kCloneVm | kCloneVfork)) flags &= ~(kCloneVm | kCloneVfork);
    return next(fn, stack, flags, arg, parentTid, tls, childTid);
}
#endif
