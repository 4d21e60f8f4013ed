// GNU readline for deck's REPL (Debian: libreadline-dev). Swift 6 cannot touch readline's
// mutable globals directly (they are not concurrency-safe), so these small accessors do.
#ifndef DECK_CREADLINE_SHIM_H
#define DECK_CREADLINE_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

typedef char **(*deck_completion_function)(const char *text, int start, int end);

static inline void deck_rl_configure(const char *name, deck_completion_function complete) {
  rl_readline_name = name;
  rl_attempted_completion_function = complete;
  rl_catch_signals = 0;          // deck installs its own SIGINT handler
  rl_catch_sigwinch = 1;
  rl_completer_quote_characters = "\"'";
  rl_completer_word_break_characters = " \t\n";
}

/// Called from the completion function: no file name fallback, and whether to add a space.
static inline void deck_rl_completion_flags(int suppress_append) {
  rl_attempted_completion_over = 1;
  rl_completion_suppress_append = suppress_append;
}

/// Which characters end a word for completion (" \t\n" in the REPL; "" to complete the whole line).
static inline void deck_rl_set_word_breaks(const char *characters) {
  rl_completer_word_break_characters = characters;
}

static inline int deck_rl_completion_quote_character(void) { return rl_completion_quote_character; }

/// The line being edited up to the cursor (a copy the caller frees).
static inline char *deck_rl_line_to_point(void) {
  if (rl_line_buffer == NULL) return strdup("");
  return strndup(rl_line_buffer, (size_t)rl_point);
}

/// Ctrl-C at the prompt: drop the line and show a fresh prompt.
static inline void deck_rl_clear_line(void) {
  rl_crlf();
  rl_replace_line("", 0);
  rl_on_new_line();
  rl_redisplay();
}

/// Leaves the terminal as readline found it (on SIGTERM and crash paths).
static inline void deck_rl_restore_terminal(void) {
  rl_free_line_state();
  rl_cleanup_after_signal();
}

static inline int deck_history_length(void) { return history_length; }

static inline const char *deck_history_line(int offset_from_end) {
  if (offset_from_end >= history_length) return NULL;
  HIST_ENTRY *entry = history_get(history_base + history_length - 1 - offset_from_end);
  return entry ? entry->line : NULL;
}

#endif
