// What the start-up helper (docs/HELPER.md) and script mode's executor need from C: the
// concurrency runtime's enqueue hooks, libdispatch's main-queue drain (so the helper's warm-up
// leaves no worker thread behind),
// and the socket calls whose macros Swift cannot import (SCM_RIGHTS, SO_PEERCRED, pidfd,
// accept4). Implemented in chelper.c, which is compiled with _GNU_SOURCE; this header is not,
// so the types it shares with Swift's Glibc module stay the same.
#ifndef DECK_CHELPER_H
#define DECK_CHELPER_H

#include <stddef.h>
#include <sys/types.h>

/// The concurrency runtime's hooks for jobs sent to the global executor: now, after a delay,
/// and at a deadline.
void **deck_hook_global(void);
void **deck_hook_delay(void);
void **deck_hook_deadline(void);

/// The seconds from now until an instant of the deadline hook (0 when it has passed): on the
/// concurrency runtime's clock 1 (continuous: CLOCK_BOOTTIME) or 2 (suspending: CLOCK_MONOTONIC).
double deck_seconds_until(long long seconds, long long nanoseconds, int clock);

/// libdispatch's entry points for a run loop that drains the main queue itself (Foundation's
/// CFRunLoop uses them): the eventfd that becomes readable when the main queue has work, and
/// the call that runs that work on the calling (main) thread.
int deck_main_queue_handle(void);
void deck_drain_main_queue(void);

/// A non-blocking, close-on-exec eventfd.
int deck_eventfd(void);

/// poll(2)'s "the peer closed its end" event (POLLRDHUP, a _GNU_SOURCE macro).
short deck_pollrdhup(void);

/// accept4 with SOCK_CLOEXEC.
int deck_accept(int listener);

/// A pidfd for `pid` (readable when it exits), or -1 with errno.
int deck_pidfd_open(pid_t pid);

/// The uid of the peer of a connected Unix socket; returns -1 with errno on failure.
int deck_peer_uid(int sock, uid_t *uid);

/// Receives up to `size` bytes and exactly three file descriptors (SCM_RIGHTS, close-on-exec)
/// into `fds`. Returns the byte count, or -1 with errno (EPROTO when the message did not carry
/// three fds; any fds it did carry are closed).
ssize_t deck_recv_three_fds(int sock, void *buffer, size_t size, int fds[3]);

#endif
