// libvips (Debian: libvips-dev; at run time libvips42) for the profile photo: type checks, full
// decodes, and the downscale and JPEG re-encode of a photo over the 5 MB limit (preferences.md
// §2A).
//
// deck loads libvips with dlopen when a photo command needs it, not at start-up: linking it
// makes every deck command load its ~100 libraries first (measured on Debian 12: about 25 ms of
// CPU time and 70-200 ms on a busy machine, against 1.4 ms for an empty C program), for a
// feature few commands use. It looks up only libvips's and glib's public functions. So nothing here is linked: `deck_vips_open` finds the
// functions deck calls (as libvips 8.x and glib 2.x declare them; their ABI is stable within
// soname 42) and the wrappers below call them, the variadic ones (which Swift cannot call) with
// fixed arguments. <vips/vips.h> is not included: it needs glib's include folders, which a system
// module map cannot add, and the declarations are not needed to call through pointers.
#ifndef DECK_CVIPS_SHIM_H
#define DECK_CVIPS_SHIM_H
#include <dlfcn.h>
#include <stddef.h>

typedef struct _VipsImage VipsImage;

/// The libvips and glib functions deck calls, found by `deck_vips_open`.
typedef struct deck_vips_api {
  void *handle;
  int (*init)(const char *argv0);
  void (*cache_set_max)(int max);
  void (*cache_set_max_mem)(size_t max_mem);
  const char *(*foreign_find_load_buffer)(const void *data, size_t size);
  void *image_new_from_buffer;  // VipsImage *(const void *, size_t, const char *option_string, ...)
  int (*image_get_width)(const VipsImage *image);
  int (*image_get_height)(const VipsImage *image);
  int (*image_hasalpha)(VipsImage *image);
  void *avg;               // int (VipsImage *, double *, ...)
  void *thumbnail_buffer;  // int (void *, size_t, VipsImage **, int width, ...)
  void *flatten;           // int (VipsImage *, VipsImage **, ...)
  void *(*array_double_new)(const double *array, int n);
  void (*area_unref)(void *area);
  void *jpegsave_buffer;   // int (VipsImage *, void **, size_t *, ...)
  const char *(*error_buffer)(void);
  void (*error_clear)(void);
  void *(*object_ref)(void *object);
  void (*object_unref)(void *object);
  void (*free)(void *memory);
  unsigned int (*log_set_handler)(
    const char *domain, int levels, void (*handler)(const char *, int, const char *, void *), void *data);
} deck_vips_api;

static inline void deck_vips_ignore_log(const char *domain, int level, const char *message, void *data) {
  (void)domain; (void)level; (void)message; (void)data;
}

// The most memory libvips's operation cache may hold (it holds none: cache_set_max(0)).
#define DECK_VIPS_MAX_CACHE_MEMORY ((size_t)64 << 20)

/// Loads libvips (soname 42), finds its functions and starts it: 0 on success, else -1 with
/// `*problem` saying why (dlerror's text, or libvips's start-up error). Its warnings
/// (G_LOG_LEVEL_WARNING, MESSAGE and INFO of the "VIPS" domain, e.g. "heifload: ignoring nclx
/// profile") are not printed: deck reports errors itself.
static inline int deck_vips_open(deck_vips_api *api, const char **problem) {
  const char *names[] = {"libvips.so.42", "libvips.42.dylib", "libvips.so"};
  api->handle = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && api->handle == NULL; i++) {
    api->handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (api->handle == NULL) {
    *problem = dlerror();
    return -1;
  }
#define DECK_FIND(field, symbol) \
  if ((*(void **)&api->field = dlsym(api->handle, symbol)) == NULL) { *problem = dlerror(); return -1; }
  DECK_FIND(init, "vips_init")
  DECK_FIND(cache_set_max, "vips_cache_set_max")
  DECK_FIND(cache_set_max_mem, "vips_cache_set_max_mem")
  DECK_FIND(foreign_find_load_buffer, "vips_foreign_find_load_buffer")
  DECK_FIND(image_new_from_buffer, "vips_image_new_from_buffer")
  DECK_FIND(image_get_width, "vips_image_get_width")
  DECK_FIND(image_get_height, "vips_image_get_height")
  DECK_FIND(image_hasalpha, "vips_image_hasalpha")
  DECK_FIND(avg, "vips_avg")
  DECK_FIND(thumbnail_buffer, "vips_thumbnail_buffer")
  DECK_FIND(flatten, "vips_flatten")
  DECK_FIND(array_double_new, "vips_array_double_new")
  DECK_FIND(area_unref, "vips_area_unref")
  DECK_FIND(jpegsave_buffer, "vips_jpegsave_buffer")
  DECK_FIND(error_buffer, "vips_error_buffer")
  DECK_FIND(error_clear, "vips_error_clear")
  DECK_FIND(object_ref, "g_object_ref")
  DECK_FIND(object_unref, "g_object_unref")
  DECK_FIND(free, "g_free")
  DECK_FIND(log_set_handler, "g_log_set_handler")
#undef DECK_FIND
  if (api->init("deck") != 0) {
    *problem = api->error_buffer();
    return -1;
  }
  // No operation cache: each photo is read once, and nothing of it should stay in memory.
  api->cache_set_max(0);
  api->cache_set_max_mem(DECK_VIPS_MAX_CACHE_MEMORY);
  api->log_set_handler("VIPS", (1 << 4) | (1 << 5) | (1 << 6), deck_vips_ignore_log, NULL);
  return 0;
}

// VipsFailOn: VIPS_FAIL_ON_ERROR stops on truncation or a decode error.
#define DECK_VIPS_FAIL_ON_ERROR 2
// VipsSize: VIPS_SIZE_DOWN only ever shrinks.
#define DECK_VIPS_SIZE_DOWN 2
// VipsAccess: VIPS_ACCESS_SEQUENTIAL reads the pixels top to bottom, once, in strips, so that
// decoding never holds the whole image in memory nor writes it to a temporary file.
#define DECK_VIPS_ACCESS_SEQUENTIAL 1

/// Whether a libvips loader reads `buf` (it looks at the first bytes only).
static inline int deck_vips_has_loader(const deck_vips_api *api, const void *buf, size_t len) {
  return api->foreign_find_load_buffer(buf, len) != NULL;
}

/// The image in `buf` (its header only: pixels are decoded on demand, in one sequential pass),
/// failing on truncation and decode errors. NULL when it cannot be read; release with
/// deck_vips_release.
static inline VipsImage *deck_vips_load(const deck_vips_api *api, const void *buf, size_t len) {
  VipsImage *(*load)(const void *, size_t, const char *, ...) = api->image_new_from_buffer;
  return load(buf, len, "", "fail_on", DECK_VIPS_FAIL_ON_ERROR, "access", DECK_VIPS_ACCESS_SEQUENTIAL, NULL);
}

/// Decodes every pixel (their average), so that a corrupt image fails here. 0 on success.
static inline int deck_vips_decode_all(const deck_vips_api *api, VipsImage *image) {
  int (*avg)(VipsImage *, double *, ...) = api->avg;
  double average = 0;
  return avg(image, &average, NULL);
}

/// The image in `buf`, turned upright (EXIF orientation) and shrunk to fit a `side` × `side`
/// box (never enlarged). 0 on success; release `*out` with deck_vips_release.
static inline int deck_vips_thumbnail(const deck_vips_api *api, void *buf, size_t len, VipsImage **out, int side) {
  int (*thumbnail)(void *, size_t, VipsImage **, int, ...) = api->thumbnail_buffer;
  return thumbnail(
    buf, len, out, side, "height", side, "size", DECK_VIPS_SIZE_DOWN, "fail_on", DECK_VIPS_FAIL_ON_ERROR, NULL);
}

/// `in` flattened onto white (JPEG has no alpha) when it has an alpha channel, else `in` with
/// a new reference. 0 on success; release `*out` with deck_vips_release.
static inline int deck_vips_opaque(const deck_vips_api *api, VipsImage *in, VipsImage **out) {
  if (!api->image_hasalpha(in)) {
    // A second reference, so that the caller releases `in` and `*out` alike.
    *out = api->object_ref(in);
    return 0;
  }
  int (*flatten)(VipsImage *, VipsImage **, ...) = api->flatten;
  double white[1] = {255.0};
  void *background = api->array_double_new(white, 1);
  int result = flatten(in, out, "background", background, NULL);
  api->area_unref(background);
  return result;
}

/// A baseline JPEG of `in` at `quality` (1-100), metadata stripped (no EXIF location), Huffman
/// tables optimised. 0 on success; release `*buf` with deck_vips_free.
static inline int deck_vips_jpeg(const deck_vips_api *api, VipsImage *in, void **buf, size_t *len, int quality) {
  int (*save)(VipsImage *, void **, size_t *, ...) = api->jpegsave_buffer;
  return save(in, buf, len, "Q", quality, "strip", 1, "optimize_coding", 1, NULL);
}

static inline int deck_vips_width(const deck_vips_api *api, const VipsImage *image) {
  return api->image_get_width(image);
}

static inline int deck_vips_height(const deck_vips_api *api, const VipsImage *image) {
  return api->image_get_height(image);
}

static inline void deck_vips_release(const deck_vips_api *api, VipsImage *image) { api->object_unref(image); }

static inline void deck_vips_free(const deck_vips_api *api, void *memory) { api->free(memory); }

/// The library's last error text ("" when none), which the next call clears.
static inline const char *deck_vips_error(const deck_vips_api *api) {
  const char *text = api->error_buffer();
  return text == NULL ? "" : text;
}

static inline void deck_vips_error_clear(const deck_vips_api *api) { api->error_clear(); }
#endif
