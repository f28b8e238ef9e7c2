// SPDX-License-Identifier: Apache-2.0
/*
 * graft plugin ABI: the only header a graft plugin needs.
 *
 * graft plans what a container gets (a list of typed actions) and hands each
 * action to the plugin that claims its kind. Plugins are shared objects
 * (MODULE libraries) loaded with dlopen(RTLD_NOW | RTLD_LOCAL) from the
 * policy's plugin directory. This header is plain C so a plugin can be written
 * in C, C++ or anything that can export a C symbol; it must compile as both.
 *
 * Rules that hold for every pointer crossing this boundary:
 *  - No C++ types and no exceptions cross it. A C++ plugin must catch every
 *    exception inside each function below and turn it into a status + message.
 *  - No allocator mixing: whoever allocates frees. The host never frees memory
 *    a plugin returned, and a plugin never frees memory the host passed in.
 *  - Borrowed pointers are valid only for the duration of the call they are
 *    passed to, unless the comment next to them says otherwise. Copy what you
 *    need to keep.
 *  - Strings are NUL-terminated UTF-8 unless a length is given next to them.
 *  - String lists are arrays of `const char*` terminated by a NULL entry; an
 *    empty list is a pointer to a single NULL entry, never a NULL pointer.
 *
 * Threading: the host calls a plugin from one thread at a time, in the order
 * init -> prepare* -> apply* -> finish -> destroy (`graft verify`: init ->
 * verify* -> destroy). A plugin needs no locking for its own state.
 *
 * Time and signals: every call runs under the host's deadline (policy
 * [limits] deadline_ms), a SIGALRM from ITIMER_REAL that ends the whole run.
 * A plugin must not block, ignore or handle SIGALRM, nor use alarm() or
 * ITIMER_REAL. A child process it starts must die with the host
 * (PR_SET_PDEATHSIG). A fatal signal in any call is named by the host
 * (plugin file, phase, action) before the process dies by it.
 *
 * Namespaces (ABI 1.1): `prepare` runs in the host's own mount namespace,
 * before graft enters the container's; `apply` and `finish` run inside the
 * container's mount namespace (before pivot_root, so host paths may still be
 * visible there, but they are not to be trusted). A plugin opens and verifies
 * every host object it needs in prepare (O_PATH fds, detached mount clones,
 * file contents) and only attaches them in apply.
 *
 * Versioning: the host refuses a plugin whose abi_major differs from its own,
 * and one whose abi_minor is newer than its own ("ABI 1.4, this graft speaks
 * 1.0 to 1.3"): such a plugin may rely on members or calls this host does not
 * have (a context member it would read as garbage, a call never made), and
 * nothing in its descriptor says which, so it is refused rather than run
 * half-served. A plugin of an older minor loads: the host treats every member
 * past its struct_size as NULL. Minor versions only append members to the end
 * of structs; every struct that may grow starts with (or carries) a
 * struct_size so either side can tell which members the other one knows. Read
 * a member only when the struct_size the other side reported covers it.
 *
 * Widths: integer members have fixed widths (uint32_t, int32_t), so the
 * layout is the same for every compiler of a platform. size_t lengths and
 * pointers are the platform's own width. Function parameters and returns
 * that are fds, open(2) flags, -errno or a log level stay `int`, as in the
 * POSIX calls they mirror (int is int32_t on every Linux ABI); a status is a
 * graft_status, which is as wide.
 */
#ifndef GRAFT_PLUGIN_H
#define GRAFT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRAFT_PLUGIN_ABI_MAJOR 1
#define GRAFT_PLUGIN_ABI_MINOR 3

/* The one symbol a plugin exports. Plugins are built with
 * -fvisibility=hidden; GRAFT_PLUGIN_EXPORT marks the entry as visible. */
#define GRAFT_PLUGIN_ENTRY_SYMBOL "graft_plugin_entry"
#define GRAFT_PLUGIN_EXPORT __attribute__((visibility("default")))

/* What init, prepare, apply, finish and verify return. Any value other than
 * GRAFT_OK is a failure; the message comes from the out-parameter (init) or
 * last_error. The type replaced `int` (ABI 1.3) with the same values, width
 * and signedness, so plugins built before it load unchanged.
 *
 * A failing call may leave errno at the errno of the system call that failed,
 * or 0 when none did: the host reads errno as the call returns, before it
 * asks for the message, and keeps it with the error (an EMFILE names graft's
 * open-file limit). It is advisory: it words an error, never decides whether
 * a call failed, and a plugin that leaves errno as it found it loses nothing
 * but that wording. */
typedef enum graft_status {
  GRAFT_OK = 0,
  GRAFT_ERROR = 1,
  /* Not a status: keeps the type as wide and as signed as the int it was,
   * so that every value an older plugin returns is one the host may read. */
  GRAFT_STATUS_INT_RANGE = -2147483647 - 1
} graft_status;

/* Action kinds, mirroring graft's ActionKind. The numbers are part of the
 * ABI and never change; 0 is never a valid kind. */
enum graft_action_kind {
  GRAFT_ACTION_DEVICE_NODE = 1,    /* device node at target (major:minor, type) */
  GRAFT_ACTION_CGROUP_ALLOW = 2,   /* allow type major:minor access in the device cgroup */
  GRAFT_ACTION_BIND_MOUNT = 3,     /* bind host source at target with options */
  GRAFT_ACTION_SYMLINK = 4,        /* create target -> source inside the container */
  GRAFT_ACTION_PROCFS_MASK = 5,    /* tmpfs at target with filtered copies of source files */
  GRAFT_ACTION_CONFIG_FILE = 6,    /* write content to target */
  GRAFT_ACTION_ENV = 7,            /* set target=content in the container's environment */
  GRAFT_ACTION_LDCACHE_UPDATE = 8  /* refresh the container's ld.so.cache for paths */
};

/* Levels for graft_host_services.log, lowest first. */
enum graft_log_level {
  GRAFT_LOG_DEBUG = 0,
  GRAFT_LOG_INFO = 1,
  GRAFT_LOG_WARNING = 2,
  GRAFT_LOG_ERROR = 3
};

/* One planned action. Owned by the host; every pointer in it is borrowed and
 * valid only during the apply call it is passed to. */
struct graft_action {
  uint32_t struct_size;            /* sizeof(struct graft_action) as the host knows it */
  uint32_t kind;                   /* an enum graft_action_kind value */
  const char* plugin;              /* the plugin name the plan chose (this plugin's name) */
  const char* source;              /* host path; link value for symlinks; "" when unused */
  const char* target;              /* container path; "c MAJ:MIN" for cgroup_allow; env name */
  const char* const* options;      /* NULL-terminated: "ro", "nosuid", "nodev", "mkdir", ... */
  char device_type;                /* 'c' or 'b' for device_node / cgroup_allow, else 0 */
  uint32_t major;                  /* device major number (device kinds) */
  uint32_t minor;                  /* device minor number (device kinds) */
  const char* access;              /* cgroup access such as "rw"; "" when unused */
  const char* content;             /* config_file content / env value / ldcache_update: the
                                      container paths the new cache must list, one per line
                                      (may be empty; entries outside `paths` come first and
                                      must win for their soname). Not NUL-safe: */
  size_t content_length;           /*   use content_length bytes (a NUL follows them) */
  const char* const* paths;        /* NULL-terminated: procfs files kept / ld cache dirs */
  const char* const* rewrites;     /* NULL-terminated: procfs "file:from=>to" edits */
  const char* capability;          /* provenance: grouping such as "compute", "GPU 1" */
  const char* reason;              /* provenance: why, such as "GPU 1 (VISIBLE_DEVICES=1)" */
  const char* origin;              /* provenance: "file:line" of the policy or rule; may be "" */
  /* ABI 1.1 */
  uint32_t index;                  /* the action's position in the plan; the same in prepare
                                      and apply, so a plugin can key what prepare opened */
};

/* Where an action is applied. Owned by the host; borrowed for one apply call. */
struct graft_apply_context {
  uint32_t struct_size;            /* sizeof(struct graft_apply_context) as the host knows it */
  const char* container_id;        /* the OCI container id; "" when unknown */
  int32_t rootfs_fd;               /* O_PATH directory fd of the container's root filesystem,
                                      owned by the host (do not close); -1 when there is none.
                                      Resolve container paths through resolve_in_root. */
  const char* rootfs_path;         /* the same root as a host path, for messages only */
  int32_t pid;                     /* the container's init pid; 0 when unknown */
  /* ABI 1.1 */
  uint32_t container_uid;          /* owner for what a plugin creates in the rootfs (the */
  uint32_t container_gid;          /*   rootfs owner, as the runtime mapped it); 0 for root */
  /* ABI 1.2 */
  int32_t pidfd;                   /* pidfd of the container's init, owned by the host (do not
                                      close); -1 when unknown. Read /proc/<pid>/... then check
                                      the process still runs (poll: the pidfd turns
                                      readable once it has exited) */
  int32_t source_root_fd;          /* O_PATH fd of the host root the plan's sources live under
                                      (the driver root), owned by the host; -1 when sources are
                                      plain host paths. Valid in prepare, where sources are
                                      opened */
  const char* source_root;         /* that root as a host path ("" when source_root_fd is -1):
                                      a source starting with it is opened relative to
                                      source_root_fd with resolve_in_root, so a symlink in the
                                      driver root resolves inside it, not against the host's /.
                                      Other sources (/dev nodes, /proc files, sockets under
                                      /run) stay plain host paths */
};

/* Services the host offers a plugin. Owned by the host; the pointer given to
 * init stays valid until destroy returns, so a plugin may keep it in state. */
struct graft_host_services {
  uint32_t struct_size;            /* sizeof(struct graft_host_services) as the host knows it */
  void* host;                      /* opaque host data; pass it back as the first argument */

  /* Writes one line to graft's log, attributed to this plugin. `message` is
   * borrowed for the call. Never fails, never blocks for long. */
  void (*log)(void* host, int level, const char* message);

  /* Opens `path` inside the directory `root_fd` as if root_fd were "/":
   * absolute paths, "..", and symlinks (absolute or relative) never leave
   * root_fd (openat2 with RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS). `flags`
   * are open(2) flags (O_CLOEXEC is always added; O_CREAT is refused since
   * the mode is not passed). Returns a new fd the caller owns and must close,
   * or -errno on failure. This is how a plugin must open any container path:
   * the rootfs belongs to whoever built the image. */
  int (*resolve_in_root)(void* host, int root_fd, const char* path, int flags);
};

/* ABI 1.3: what a plugin's verify found for one action (`graft verify`).
 * Borrowed by the host for the report call only. */
enum graft_finding_kind {
  GRAFT_FINDING_DRIFT = 1,       /* the container no longer has what the action gave it */
  GRAFT_FINDING_UNKNOWN = 2,     /* the plugin cannot tell; `found` says what and why */
  GRAFT_FINDING_NOT_CHECKED = 3  /* the plugin does not check actions like this one (a
                                    kind it executes but has no check for); `found` says
                                    why. Counted, not printed as a difference */
};

struct graft_finding {
  uint32_t struct_size;            /* sizeof(struct graft_finding) as the plugin knows it */
  uint32_t kind;                   /* an enum graft_finding_kind value */
  const char* expected;            /* what the action gave, in the plugin's words ("rw") */
  const char* found;               /* what is there now ("nothing allowed", "missing"), or
                                      for GRAFT_FINDING_UNKNOWN what cannot be told, and why */
};

/* Where verify reports. Owned by the host, borrowed for one verify call. */
struct graft_finding_sink {
  uint32_t struct_size;            /* sizeof(struct graft_finding_sink) as the host knows it */
  void* host;                      /* opaque; pass it back as the first argument */
  /* Records one finding (one line of `graft verify`). Never fails. */
  void (*report)(void* host, const struct graft_finding* finding);
};

/* The descriptor a plugin returns from graft_plugin_entry. Owned by the
 * plugin, static storage: it must stay valid and unchanged until the host
 * dlcloses the plugin. The first three members never move. */
struct graft_plugin {
  uint32_t abi_major;              /* GRAFT_PLUGIN_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor;              /* GRAFT_PLUGIN_ABI_MINOR the plugin was built with */
  uint32_t struct_size;            /* sizeof(struct graft_plugin) as the plugin knows it */

  const char* name;                /* must equal the file's name ("devices" in libdevices.so) */
  const char* version;             /* free-form, for logs and the audit line */

  const uint32_t* kinds;           /* the enum graft_action_kind values this plugin executes; */
  uint32_t kind_count;             /*   static storage. kind_count may be 0 (kinds then unused) */

  /* Creates the plugin's state. `services` is borrowed until destroy (see
   * graft_host_services). `config_json` is the policy's [plugins.config.NAME]
   * table as a JSON object (the host checked it is a table; its keys are the
   * plugin's to check), "{}" when the policy configures nothing, borrowed for
   * the call.
   * On success return GRAFT_OK and set *state (NULL is allowed). On failure
   * return GRAFT_ERROR and set *error to a message that is either static or owned
   * by *state; the host copies it at once, then calls destroy(*state), so a
   * plugin that allocated state for its message frees both there. The host
   * never frees *error. Required. */
  graft_status (*init)(const struct graft_host_services* services, const char* config_json,
                       void** state, const char** error);

  /* Executes one action whose kind this plugin claims. `action` and
   * `context` are borrowed for the call. Returns GRAFT_OK, or GRAFT_ERROR with
   * the reason available from last_error(state). Must not leave a partial
   * change behind that a retry would trip over. Required when kind_count > 0. */
  graft_status (*apply)(void* state, const struct graft_action* action,
                        const struct graft_apply_context* context);

  /* Frees the state init created (and any message it owns). Called exactly
   * once per init, also after a failed init; `state` may be NULL. Required. */
  void (*destroy)(void* state);

  /* The message for the last failed call on `state`. Owned by the plugin:
   * valid until the next call on the same state. May return NULL. Required. */
  const char* (*last_error)(void* state);

  /* Was `expand` (reserved for planning contributions, but never
   * defined and never called); kept so the members after it do not move and
   * plugins built against 1.3 still load. Must be NULL: the host refuses a
   * plugin that sets it. Such a plugin expects a call no graft makes (or
   * holds stale bytes here), and a refusal says so where silence would run
   * it without that call. Planning stays in core: what a container gets is
   * decided from the policy, not by plugins. */
  void* reserved;

  /* ABI 1.1. Called once for every action this plugin will apply, in plan
   * order, before any apply, while the host is still in its own mount
   * namespace (context->rootfs_fd is -1). Open host sources here, verify they
   * are what the plan expects, and keep what apply needs keyed by
   * action->index. Returns GRAFT_OK or GRAFT_ERROR with last_error. Optional
   * (NULL: apply gets no preparation). */
  graft_status (*prepare)(void* state, const struct graft_action* action,
                          const struct graft_apply_context* context);

  /* ABI 1.1. Called once after every action of the plan was applied (and
   * only then), inside the container's mount namespace, in plugin load
   * order. A plugin that batches its actions (one device filter for all
   * cgroup rules) does that work here. Returns GRAFT_OK or GRAFT_ERROR with
   * last_error. Optional. */
  graft_status (*finish)(void* state, const struct graft_apply_context* context);

  /* ABI 1.3. `graft verify`: checks that the running container still has
   * what `action` gave it, changing nothing. Called once per action of the
   * plugin's kinds, in plan order, in the host's own mount namespace and
   * without prepare: context->rootfs_fd is an O_PATH fd of the container's
   * root as its init sees it (/proc/<pid>/root; resolve every path through
   * resolve_in_root, the rootfs is hostile), pid and pidfd are set. Each
   * difference is one sink->report call (several are allowed; none means
   * the action holds). Returns GRAFT_OK when the check ran, or GRAFT_ERROR
   * with last_error when it could not (the host then stops). A question the
   * plugin cannot answer (missing privileges, a program it cannot
   * interpret) is a GRAFT_FINDING_UNKNOWN report, not an error and never a
   * pass. Optional (NULL: the host counts the action as not checked). */
  graft_status (*verify)(void* state, const struct graft_action* action,
                         const struct graft_apply_context* context,
                         const struct graft_finding_sink* sink);
};

/* The entry point, looked up by name (GRAFT_PLUGIN_ENTRY_SYMBOL). Returns the
 * plugin's static descriptor; it must not allocate or fail, and may be called
 * more than once. Returning NULL makes the host refuse the plugin. */
GRAFT_PLUGIN_EXPORT const struct graft_plugin* graft_plugin_entry(void);

typedef const struct graft_plugin* (*graft_plugin_entry_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GRAFT_PLUGIN_H */
