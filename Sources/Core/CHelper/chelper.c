// See include/chelper.h.
#define _GNU_SOURCE
#include "chelper.h"

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

extern void *swift_task_enqueueGlobal_hook;
extern void *swift_task_enqueueGlobalWithDelay_hook;
extern void *swift_task_enqueueGlobalWithDeadline_hook;
void **deck_hook_global(void) { return &swift_task_enqueueGlobal_hook; }
void **deck_hook_delay(void) { return &swift_task_enqueueGlobalWithDelay_hook; }
void **deck_hook_deadline(void) { return &swift_task_enqueueGlobalWithDeadline_hook; }

double deck_seconds_until(long long seconds, long long nanoseconds, int clock) {
  struct timespec now;
  clock_gettime(clock == 1 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &now);
  double left = (double)(seconds - (long long)now.tv_sec) + (double)(nanoseconds - (long long)now.tv_nsec) / 1e9;
  return left > 0 ? left : 0;
}

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);
int deck_main_queue_handle(void) { return _dispatch_get_main_queue_handle_4CF(); }
void deck_drain_main_queue(void) { _dispatch_main_queue_callback_4CF(0); }

int deck_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

short deck_pollrdhup(void) { return POLLRDHUP; }

int deck_accept(int listener) { return accept4(listener, NULL, NULL, SOCK_CLOEXEC); }

int deck_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int deck_peer_uid(int sock, uid_t *uid) {
  struct ucred cred;
  socklen_t length = sizeof cred;
  if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) return -1;
  *uid = cred.uid;
  return 0;
}

ssize_t deck_recv_three_fds(int sock, void *buffer, size_t size, int fds[3]) {
  union {
    char bytes[CMSG_SPACE(sizeof(int) * 3)];
    struct cmsghdr align;
  } control;
  struct iovec vector = {.iov_base = buffer, .iov_len = size};
  struct msghdr message = {0};
  message.msg_iov = &vector;
  message.msg_iovlen = 1;
  message.msg_control = control.bytes;
  message.msg_controllen = sizeof control.bytes;
  ssize_t count;
  do {
    count = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
  } while (count < 0 && errno == EINTR);
  if (count < 0) return -1;
  int received = 0;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    size_t n = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    int *data = (int *)CMSG_DATA(header);
    for (size_t i = 0; i < n; i++) {
      if (received < 3) fds[received++] = data[i];
      else close(data[i]);
    }
  }
  if (received != 3 || (message.msg_flags & MSG_CTRUNC)) {
    for (int i = 0; i < received; i++) close(fds[i]);
    errno = EPROTO;
    return -1;
  }
  return count;
}

