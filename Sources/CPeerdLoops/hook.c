#include "CPeerdLoops.h"

// Written in C because Swift can't name the runtime's hook: a variable of the Swift runtime
// (swift/Runtime/ConcurrencyHooks.def) that, when set, receives every job for the global executor
// instead of libdispatch. SwiftNIO finds it with dlsym
// (`unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`), which fails in a
// binary with the runtime linked in (`--static-swift-stdlib` links it with `--exclude-libs ALL`);
// a reference resolved by the linker works in both kinds of build.
typedef void (__attribute__((swiftcall)) *peerd_enqueue_original)(void *job);

extern void (__attribute__((swiftcall)) *swift_task_enqueueGlobal_hook)(void *job, peerd_enqueue_original original);

// In PeerdLoops (GlobalExecutor.swift), as @_cdecl.
void peerd_enqueue_global_job(void *job);

static void __attribute__((swiftcall)) peerd_enqueue_hook(void *job, peerd_enqueue_original original) {
    (void)original;
    peerd_enqueue_global_job(job);
}

void peerd_install_global_executor(void) {
    swift_task_enqueueGlobal_hook = peerd_enqueue_hook;
}
