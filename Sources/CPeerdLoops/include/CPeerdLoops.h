#ifndef CPEERDLOOPS_H
#define CPEERDLOOPS_H

/// Makes `peerd_enqueue_global_job` (PeerdLoops, `GlobalExecutor`) Swift's global executor: every
/// job the runtime would give libdispatch's pool goes there instead. Call it before any task runs.
void peerd_install_global_executor(void);

#endif
