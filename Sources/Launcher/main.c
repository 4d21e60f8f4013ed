// `deck`, the launcher users run. It hands a command line to the start-up helper (a warm
// `deck-core` that forks a child per command) and stands in for that child: its exit code, its
// death by a signal, and the terminal's signals forwarded to it. Whatever it cannot hand over
// runs in `deck-core`, exec'd in this process. docs/HELPER.md is the design and the wire
// protocol; this file is its client side.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_REQUEST (16u << 20) // the helper refuses more (HelperRequest.maximumSize)

extern char **environ;

static char core[PATH_MAX]; // deck-core's path
static char **arguments;    // the launcher's argv, which deck-core gets unchanged

// The signals handled while the command runs (docs/HELPER.md, `P`). All are below 32, so a
// bitmask of them fits a sig_atomic_t.
static const int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT};
#define HANDLED (sizeof handled / sizeof handled[0])
static struct sigaction original[HANDLED]; // dispositions to restore before exec'ing deck-core
static int installed[HANDLED];
static sigset_t original_mask; // the signal mask to restore before exec'ing deck-core
static volatile sig_atomic_t child;   // the child's pid, also its process group; 0 until `P`
static volatile sig_atomic_t pending; // bit s: signal s arrived before `P`

static void on_signal(int sig);

static int set_default(int sig) {
  struct sigaction action = {.sa_handler = SIG_DFL};
  sigemptyset(&action.sa_mask);
  return sigaction(sig, &action, NULL);
}

static void install(int sig) {
  struct sigaction action = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
  sigemptyset(&action.sa_mask);
  // Handlers never interrupt each other, so `pending |= ...` cannot lose a bit.
  for (size_t i = 0; i < HANDLED; i++) sigaddset(&action.sa_mask, handled[i]);
  sigaction(sig, &action, NULL);
}

// Ctrl-Z: stops the child's group, then the launcher, and continues the group when the launcher
// is continued. SIGSTOP, because the child's group is orphaned and would discard a SIGTSTP.
static void stop(pid_t pid) {
  kill(-pid, SIGSTOP);
  set_default(SIGTSTP);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTSTP);
  sigprocmask(SIG_UNBLOCK, &set, NULL); // it is blocked while its handler runs
  raise(SIGTSTP);                       // the launcher stops here until SIGCONT
  install(SIGTSTP);
  kill(-pid, SIGCONT);
}

static void forward(int sig, pid_t pid) {
  if (sig == SIGTSTP) stop(pid);
  else kill(-pid, sig);
}

static void on_signal(int sig) {
  int saved = errno;
  pid_t pid = child;
  if (pid > 0) forward(sig, pid);
  else pending |= 1 << sig;
  errno = saved;
}

// Runs the command in deck-core with the launcher's argv and environment ("bypass").
static _Noreturn void run_core(void) {
  for (size_t i = 0; i < HANDLED; i++)
    if (installed[i]) sigaction(handled[i], &original[i], NULL);
  sigprocmask(SIG_SETMASK, &original_mask, NULL);
  // A signal that came while the helper was asked acts now, as it would have on deck-core.
  for (size_t i = 0; i < HANDLED; i++)
    if (pending & (1 << handled[i])) raise(handled[i]);
  execv(core, arguments);
  fprintf(stderr, "deck: cannot run %s: %s\n", core, strerror(errno));
  exit(70);
}

static int executable(const char *dir, const char *name) {
  int n = snprintf(core, sizeof core, "%s/%s", dir, name);
  return n > 0 && (size_t)n < sizeof core && access(core, X_OK) == 0;
}

// deck-core is beside the launcher (bin/deck-core) or in <prefix>/libexec/deck.
static void find_core(void) {
  char dir[PATH_MAX];
  if (!realpath("/proc/self/exe", dir)) {
    fprintf(stderr, "deck: cannot find its own executable (/proc/self/exe: %s); reinstall deck (scripts/install)\n",
            strerror(errno));
    exit(70);
  }
  *strrchr(dir, '/') = 0; // realpath's answer is absolute
  if (executable(dir, "deck-core") || executable(dir, "../libexec/deck/deck-core")) return;
  fprintf(stderr, "deck: cannot find deck-core beside %s or in %s/../libexec/deck; reinstall deck (scripts/install)\n",
          dir, dir);
  exit(70);
}

// The helper's socket for this deck-core (docs/HELPER.md, "Socket"). 0 when its directory is
// not safe (another user could read the requests or pose as the helper) or the path is too long.
static int socket_path(struct sockaddr_un *address) {
  char dir[PATH_MAX];
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  int n = runtime && runtime[0] == '/' ? snprintf(dir, sizeof dir, "%s/deck", runtime)
                                       : snprintf(dir, sizeof dir, "/tmp/deck-%u", (unsigned)getuid());
  if (n < 0 || (size_t)n >= sizeof dir) return 0;
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) return 0;
  struct stat st;
  if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077) != 0) return 0;
  if (stat(core, &st) != 0) return 0;
  // Named after deck-core's identity, so a rebuilt or reinstalled one gets its own helper.
  n = snprintf(address->sun_path, sizeof address->sun_path, "%s/helper-%jx-%jx-%jd.%09ld.sock", dir,
               (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, (intmax_t)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
  // Leaves room for the name the helper binds before renaming it into place, "<socket>.<pid>.tmp"
  // (pid_max is at most 4194304): a helper that cannot bind would be started again every time.
  return n > 0 && (size_t)n + sizeof ".4194304.tmp" <= sizeof address->sun_path;
}

// Starts a helper, unless one is starting (it holds <socket>.lock for its whole life). The
// double fork and setsid leave it in no session or process group of the user's. Errors are
// ignored: the caller runs the command in deck-core either way.
static void start_helper(const char *socket) {
  char lock_path[sizeof ((struct sockaddr_un *)0)->sun_path + 8];
  snprintf(lock_path, sizeof lock_path, "%s.lock", socket);
  int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0) return; // the helper could not take it either
  int held = flock(lock, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  if (!held) flock(lock, LOCK_UN);
  close(lock);
  if (held) return;
  pid_t pid = fork();
  if (pid == 0) {
    setsid();
    if (fork() == 0) {
      int null = open("/dev/null", O_RDWR | O_CLOEXEC);
      if (null < 0) _exit(0);
      for (int fd = 0; fd <= 2; fd++) dup2(null, fd);
      // A long-lived process keeps none of the launcher's other fds (its caller's pipes),
      // signal mask or ignored signals (an ignored SIGCHLD would keep it from reaping).
      close_range(3, ~0u, 0);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, NULL);
      for (int sig = 1; sig < NSIG; sig++) set_default(sig);
      setenv("DECK_HELPER_SOCKET", socket, 1);
      execv(core, (char *[]){"deck-core", NULL});
    }
    _exit(0);
  }
  if (pid > 0)
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
}

static size_t put(char *out, size_t at, const char *string) {
  size_t n = strlen(string) + 1;
  if (out) memcpy(out + at, string, n);
  return at + n;
}

// Writes the payload's NUL-terminated strings to `out` (when not NULL); returns their size.
static size_t pack(char *out, const char *const head[5], int argc, char **argv) {
  size_t at = 0;
  for (int i = 0; i < 5; i++) at = put(out, at, head[i]);
  for (int i = 0; i < argc; i++) at = put(out, at, argv[i]);
  for (char **entry = environ; entry && *entry; entry++) at = put(out, at, *entry);
  return at;
}

// The request after `DK01` (docs/HELPER.md, "Protocol"): a u32 LE size, then the payload.
// NULL when it would be more than 16 MiB.
static char *build_request(const char *cwd, int argc, char **argv, size_t *size) {
  mode_t mask = umask(0);
  umask(mask);
  uint64_t ignored = 0, blocked = 0;
  sigset_t set;
  sigprocmask(SIG_BLOCK, NULL, &set);
  for (int sig = 1; sig <= 64; sig++) {
    struct sigaction old;
    if (sig != SIGKILL && sig != SIGSTOP && sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      ignored |= UINT64_C(1) << (sig - 1);
    if (sigismember(&set, sig) == 1) blocked |= UINT64_C(1) << (sig - 1);
  }
  char numbers[4][24];
  snprintf(numbers[0], sizeof numbers[0], "%u", (unsigned)mask);
  snprintf(numbers[1], sizeof numbers[1], "%" PRIu64, ignored);
  snprintf(numbers[2], sizeof numbers[2], "%" PRIu64, blocked);
  snprintf(numbers[3], sizeof numbers[3], "%d", argc);
  const char *const head[5] = {cwd, numbers[0], numbers[1], numbers[2], numbers[3]};
  size_t length = pack(NULL, head, argc, argv);
  if (length > MAX_REQUEST) return NULL;
  char *buffer = malloc(4 + length);
  if (!buffer) return NULL;
  for (int i = 0; i < 4; i++) buffer[i] = (char)(length >> (8 * i));
  pack(buffer + 4, head, argc, argv);
  *size = 4 + length;
  return buffer;
}

// `DK01` with the launcher's fds 0, 1 and 2 attached.
static int send_fds(int sock) {
  union {
    char bytes[CMSG_SPACE(3 * sizeof(int))];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct iovec vector = {.iov_base = "DK01", .iov_len = 4};
  struct msghdr message = {
      .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(3 * sizeof(int));
  const int fds[3] = {0, 1, 2};
  memcpy(CMSG_DATA(header), fds, sizeof fds);
  ssize_t n;
  do n = sendmsg(sock, &message, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == 4;
}

static int send_all(int sock, const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = send(sock, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    data += n;
    size -= (size_t)n;
  }
  return 1;
}

// 0 at the end of the stream or on an error.
static int read_all(int sock, unsigned char *data, size_t size) {
  while (size > 0) {
    ssize_t n = read(sock, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    data += n;
    size -= (size_t)n;
  }
  return 1;
}

// `P`: from now on signals go to the child's group, and those that came before go now.
static void adopt(pid_t pid) {
  if (pid <= 1) return; // kill(-1, ...) would signal every process of the user's
  sigset_t set, old;
  sigemptyset(&set);
  for (size_t i = 0; i < HANDLED; i++) sigaddset(&set, handled[i]);
  sigprocmask(SIG_BLOCK, &set, &old);
  child = pid;
  int early = pending;
  pending = 0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  for (size_t i = 0; i < HANDLED; i++)
    if (early & (1 << handled[i])) forward(handled[i], pid);
}

// `S`: the launcher dies by the child's signal, so its caller sees what the child did.
static _Noreturn void die_by(int sig) {
  // The child dumped its core if it was to; a second one (the launcher's) would replace it.
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  // (Not for the signals glibc keeps for itself, which sigaction refuses.)
  if (set_default(sig) == 0) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
  }
  exit(128 + sig); // a signal whose default is to be ignored (SIGWINCH, SIGCHLD, ...)
}

int main(int argc, char **argv) {
  arguments = argv;
  find_core();
  const char *setting = getenv("DECK_HELPER");
  // No arguments: the REPL or script mode, which run in deck-core.
  if (argc == 1 || (setting && strcmp(setting, "0") == 0)) run_core();
  for (int fd = 0; fd <= 2; fd++)
    if (fcntl(fd, F_GETFD) < 0) run_core(); // the helper's child needs all three
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (!socket_path(&address)) run_core();
  char *cwd = getcwd(NULL, 0);
  if (!cwd) run_core();
  size_t size;
  char *request = build_request(cwd, argc, argv, &size);
  if (!request) run_core();
  int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0) run_core();
  if (connect(sock, (struct sockaddr *)&address, sizeof address) != 0) {
    start_helper(address.sun_path); // for the next command; this one runs here
    run_core();
  }
  // The request carries the signal mask as it was, for the child (build_request, above). The
  // launcher itself must receive the signals it forwards: its caller may have started it with
  // them blocked (a thread of a program that blocks them, as libdispatch's workers do), and
  // deck-core, which it stands in for, would have received them.
  sigset_t unblock;
  sigemptyset(&unblock);
  for (size_t i = 0; i < HANDLED; i++)
    if (sigaction(handled[i], NULL, &original[i]) == 0 && original[i].sa_handler != SIG_IGN) {
      install(handled[i]);
      installed[i] = 1;
      sigaddset(&unblock, handled[i]);
    }
  sigprocmask(SIG_UNBLOCK, &unblock, &original_mask);
  if (!send_fds(sock) || !send_all(sock, request, size)) run_core();
  free(request);
  free(cwd);
  // Records until `E`, `X` or `S`: a tag, then a little-endian i32 for `P`, `X` and `S`.
  for (;;) {
    unsigned char tag, value[4];
    if (!read_all(sock, &tag, 1)) break;
    if (tag == 'E') run_core();
    if ((tag != 'P' && tag != 'X' && tag != 'S') || !read_all(sock, value, 4)) break;
    int32_t number = (int32_t)((uint32_t)value[0] | (uint32_t)value[1] << 8 | (uint32_t)value[2] << 16 |
                               (uint32_t)value[3] << 24);
    if (tag == 'P') adopt(number);
    else if (tag == 'X') exit(number & 0xff);
    else die_by(number);
  }
  fputs("deck: the helper stopped before the command finished; run it again, or set DECK_HELPER=0 to run it "
        "without the helper\n",
        stderr);
  return 70;
}
