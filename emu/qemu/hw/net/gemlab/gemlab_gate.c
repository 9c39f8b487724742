/*
 * gemlab console gate: a chardev between a guest UART and the console
 * socket that makes console input land at defined virtual times
 * (docs/VIRTUAL_TIME.md in the gemlab repository).
 *
 *   -chardev socket,id=ser0,path=...,server=on,wait=off
 *   -chardev gemlab-gate,id=con0,chardev=ser0
 *   -serial chardev:con0
 *
 * Output: every byte the guest writes is accepted at once (so the guest
 * never sees host back-pressure), scanned for the armed pattern and
 * forwarded to the inner chardev, buffered while that one is full.
 *
 * Input: a step is {data, next expect, delay}.  The runner queues steps
 * with qom-set on /chardevs/ID: "delay-ns", "timeout-ns" and "expect"
 * stage the next trigger, "send" commits a step with the staged values
 * (and clears them).
 * A step is injected when the current trigger fires:
 *   - idle (no trigger): at once (before `cont` this is virtual time 0;
 *     with the VM running the time depends on the host: counted in
 *     "unsynced-sends");
 *   - pattern: when the guest has printed the pattern and then ended
 *     that line ('\n') at virtual time t, a QEMU_CLOCK_VIRTUAL timer
 *     fires at t + delay; with "timeout-ns"
 *     staged too, it fires at (injection time) + timeout if the pattern
 *     has not come by then (counted in "timeouts");
 *   - "" (empty pattern): the timer fires at (injection time) + delay.
 * When the timer fires and no step is queued, the VM is stopped right
 * there (vm_stop, RUN_STATE_PAUSED) and resumed by the next "send", which
 * is injected first.  Either way the guest sees the input at exactly the
 * trigger time, whatever the host's scheduling.  A step with no expect
 * (the property never set) leaves the gate idle after it.
 *
 * Input is injected with qemu_chr_be_write() as far as
 * qemu_chr_be_can_write() allows; the rest follows when the UART reads
 * its FIFO (chr_accept_input, called from the guest's register read, so
 * at a virtual time the guest determines).  Bytes typed into the inner
 * chardev go straight to the guest, as with no gate: they are not
 * deterministic.
 *
 * Modelled on QEMU's chardev/char-mux.c and chardev/char-hub.c (one
 * inner chardev, watch forwarding).  The -chardev options have the shape
 * of a mux's (one "chardev"), so parse fills a ChardevMux backend and no
 * QAPI type is added; the class is found by its name "chardev-gemlab-gate"
 * (chardev/char.c qemu_chr_parse_opts).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qemu/option.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "chardev/char.h"
#include "chardev/char-fe.h"
#include "hw/core/cpu.h"
#include "system/cpus.h"
#include "system/runstate.h"

#define TYPE_CHARDEV_GEMLAB_GATE "chardev-gemlab-gate"
OBJECT_DECLARE_SIMPLE_TYPE(GemlabGate, CHARDEV_GEMLAB_GATE)

#define GATE_EXPECT_MAX 256         /* bytes of one pattern */
#define GATE_DATA_MAX 4096          /* bytes of one step's input */
#define GATE_QUEUE_MAX 64           /* steps queued ahead */
#define GATE_OUT_MAX (4u << 20)     /* output held for a full inner chardev */

typedef struct GateStep {
    GByteArray *data;
    char *expect;                   /* NULL: idle after this step */
    uint64_t delay_ns;
    /* pattern: fire this long after the injection if not seen; 0 = never */
    uint64_t timeout_ns;
} GateStep;

/*
 * The trigger of the next step; exits:
 *   IDLE   (no trigger)   -> a "send" is injected at once (gate_consume)
 *   SCAN   (pattern)      -> TIMER when the pattern is printed; the timer
 *                            (timeout-ns) fires as in TIMER
 *   TIMER  (timer armed)  -> the timer consumes a queued step, else HELD
 *   HELD   (VM stopped)   -> a "send" is injected and the VM resumed
 * gate_consume() leaves for IDLE, SCAN or TIMER as the step says.
 */
enum gate_state { GATE_IDLE, GATE_SCAN, GATE_TIMER, GATE_HELD };

struct GemlabGate {
    Chardev parent;
    CharBackend inner;
    QEMUTimer *timer;
    enum gate_state state;
    /* the armed pattern (GATE_SCAN) and its KMP failure table */
    char *pat;
    size_t pat_len, pat_pos;
    bool pat_seen;                  /* the pattern is printed, its line not ended */
    size_t fail[GATE_EXPECT_MAX];
    uint64_t delay_ns;
    GQueue steps;
    /* staged by qom-set, committed by "send" */
    char *next_expect;
    uint64_t next_delay_ns, next_timeout_ns;
    /* input being fed to the guest */
    GByteArray *feed;
    size_t feed_off;
    /* output the inner chardev has not taken yet */
    GByteArray *out;
    guint out_watch;
    bool resume_pending;            /* a send came before the stop completed */
    VMChangeStateEntry *vmse;
    /* evidence, read-only properties */
    uint64_t nsent, nunsynced, nholds, ntimeouts, out_total, out_dropped;
    int64_t last_match_ns, last_inject_ns;
};

static int64_t gate_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void gate_feed(GemlabGate *g)
{
    Chardev *chr = CHARDEV(g);

    while (g->feed && g->feed_off < g->feed->len) {
        int n = qemu_chr_be_can_write(chr);
        if (n <= 0) {
            return;                 /* the rest on chr_accept_input */
        }
        n = MIN(n, (int)(g->feed->len - g->feed_off));
        qemu_chr_be_write(chr, g->feed->data + g->feed_off, n);
        g->feed_off += n;
    }
    if (g->feed) {
        g_byte_array_unref(g->feed);
        g->feed = NULL;
        g->feed_off = 0;
        /* the inner chardev may read again (gate_inner_can_read) */
        qemu_chr_fe_accept_input(&g->inner);
    }
}

static void gate_arm_pattern(GemlabGate *g, const char *pat)
{
    size_t k = 0;

    g_free(g->pat);
    g->pat = g_strdup(pat);
    g->pat_len = strlen(pat);
    g->pat_pos = 0;
    g->pat_seen = false;
    g->fail[0] = 0;
    for (size_t i = 1; i < g->pat_len; i++) {
        while (k && pat[i] != pat[k]) {
            k = g->fail[k - 1];
        }
        if (pat[i] == pat[k]) {
            k++;
        }
        g->fail[i] = k;
    }
}

/* Inject @s now and arm the trigger it names.  Takes @s. */
static void gate_consume(GemlabGate *g, GateStep *s)
{
    int64_t now = gate_now();

    if (s->data->len) {
        if (g->feed) {
            /* the previous input is not read yet: it goes first */
            g_byte_array_append(g->feed, s->data->data, s->data->len);
        } else {
            g->feed = g_byte_array_ref(s->data);
            g->feed_off = 0;
        }
        gate_feed(g);
    }
    g->last_inject_ns = now;
    g->nsent++;
    g->delay_ns = s->delay_ns;
    if (!s->expect) {
        g->state = GATE_IDLE;
    } else if (!s->expect[0]) {
        g->state = GATE_TIMER;
        timer_mod(g->timer, now + (int64_t)s->delay_ns);
    } else {
        g->state = GATE_SCAN;
        gate_arm_pattern(g, s->expect);
        if (s->timeout_ns) {
            timer_mod(g->timer, now + (int64_t)s->timeout_ns);
        } else {
            timer_del(g->timer);
        }
    }
    g_byte_array_unref(s->data);
    g_free(s->expect);
    g_free(s);
}

/*
 * The VM stops at this virtual time.  From the vCPU thread (where icount
 * runs QEMU_CLOCK_VIRTUAL timers, accel/tcg/tcg-accel-ops-icount.c)
 * vm_stop() only requests the stop and stops the current CPU: every CPU
 * of the round-robin thread is stopped here too, so none runs another
 * instruction before the main loop completes the stop (system/cpus.c
 * vm_stop, cpu_stop_current).
 */
static void gate_hold(GemlabGate *g)
{
    CPUState *cpu;

    g->state = GATE_HELD;
    g->nholds++;
    vm_stop(RUN_STATE_PAUSED);
    if (qemu_in_vcpu_thread()) {
        CPU_FOREACH(cpu) {
            qatomic_set(&cpu->stop, true);
            cpu_exit(cpu);
        }
    }
}

static void gate_timer_cb(void *opaque)
{
    GemlabGate *g = opaque;
    GateStep *s;

    if (g->state == GATE_SCAN) {
        g->ntimeouts++;             /* the pattern did not come in time */
    } else if (g->state != GATE_TIMER) {
        return;
    }
    s = g_queue_pop_head(&g->steps);
    if (s) {
        gate_consume(g, s);
    } else {
        gate_hold(g);
    }
}

static void gate_resume_bh(void *opaque)
{
    if (runstate_check(RUN_STATE_PAUSED)) {
        vm_start();
    }
}

/*
 * A stop the gate asked for has completed: if a step came meanwhile,
 * resume (from a BH: not inside the state change).
 */
static void gate_vm_state(void *opaque, bool running, RunState state)
{
    GemlabGate *g = opaque;

    if (!running && g->resume_pending) {
        g->resume_pending = false;
        aio_bh_schedule_oneshot(qemu_get_aio_context(), gate_resume_bh, g);
    }
}

static void gate_send(GemlabGate *g, GateStep *s)
{
    switch (g->state) {
    case GATE_IDLE:
        if (runstate_is_running()) {
            g->nunsynced++;         /* no trigger: the host decides when */
        }
        gate_consume(g, s);
        break;
    case GATE_HELD:
        gate_consume(g, s);
        if (runstate_check(RUN_STATE_PAUSED)) {
            vm_start();
        } else {
            g->resume_pending = true;
        }
        break;
    case GATE_SCAN:
    case GATE_TIMER:
        g_queue_push_tail(&g->steps, s);
        break;
    default:
        g_assert_not_reached();
    }
}

/* ---- output -------------------------------------------------------------- */

static gboolean gate_out_writable(void *do_not_use, GIOCondition cond,
                                  void *opaque);

static void gate_flush(GemlabGate *g)
{
    while (g->out->len) {
        int n = qemu_chr_fe_write(&g->inner, g->out->data, g->out->len);
        if (n <= 0) {
            if (n < 0 && errno != EAGAIN) {
                g_byte_array_set_size(g->out, 0);   /* inner gone: drop */
                return;
            }
            if (!g->out_watch) {
                g->out_watch = qemu_chr_fe_add_watch(&g->inner,
                                                     G_IO_OUT | G_IO_HUP,
                                                     gate_out_writable, g);
            }
            return;
        }
        g_byte_array_remove_range(g->out, 0, n);
    }
}

static gboolean gate_out_writable(void *do_not_use, GIOCondition cond,
                                  void *opaque)
{
    GemlabGate *g = opaque;

    g->out_watch = 0;
    gate_flush(g);
    return G_SOURCE_REMOVE;
}

static void gate_scan(GemlabGate *g, const uint8_t *buf, int len)
{
    for (int i = 0; i < len && g->state == GATE_SCAN; i++) {
        if (g->pat_seen) {
            /*
             * The trigger is the end of the line holding the pattern: an
             * answer is a whole line, and a long one (the firmware's stats,
             * ~3 KB) is still being printed when its start matches.
             */
            if (buf[i] == '\n') {
                /* the guest's write is an I/O instruction: the time is exact */
                g->last_match_ns = gate_now();
                g->state = GATE_TIMER;
                timer_mod(g->timer, g->last_match_ns + (int64_t)g->delay_ns);
            }
            continue;
        }
        while (g->pat_pos && buf[i] != (uint8_t)g->pat[g->pat_pos]) {
            g->pat_pos = g->fail[g->pat_pos - 1];
        }
        if (buf[i] == (uint8_t)g->pat[g->pat_pos]) {
            g->pat_pos++;
        }
        if (g->pat_pos == g->pat_len) {
            g->pat_seen = true;
        }
    }
}

/* Called with chr_write_lock held (chardev/char.c qemu_chr_write_buffer). */
static int gate_chr_write(Chardev *chr, const uint8_t *buf, int len)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(chr);

    gate_scan(g, buf, len);
    if (g->out->len + len > GATE_OUT_MAX) {
        g->out_dropped += len;
    } else {
        g_byte_array_append(g->out, buf, len);
        g->out_total += len;
    }
    if (!g->out_watch) {
        gate_flush(g);
    }
    return len;     /* always all: the guest never waits for the host */
}

static void gate_chr_accept_input(Chardev *chr)
{
    gate_feed(CHARDEV_GEMLAB_GATE(chr));
}

/* ---- input from the inner chardev (not gated) --------------------------- */

static int gate_inner_can_read(void *opaque)
{
    GemlabGate *g = opaque;

    if (g->feed) {
        return 0;                   /* gated input first */
    }
    return qemu_chr_be_can_write(CHARDEV(g));
}

static void gate_inner_read(void *opaque, const uint8_t *buf, int size)
{
    qemu_chr_be_write(CHARDEV(opaque), buf, size);
}

static void gate_inner_event(void *opaque, QEMUChrEvent event)
{
    qemu_chr_be_event(CHARDEV(opaque), event);
}

static void gate_update_read_handlers(Chardev *chr)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(chr);

    qemu_chr_fe_set_handlers(&g->inner, gate_inner_can_read, gate_inner_read,
                             gate_inner_event, NULL, g, chr->gcontext, true);
}

/* ---- QOM properties: the runner's interface ------------------------------ */

static void gate_set_expect(Object *obj, const char *value, Error **errp)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(obj);

    if (strlen(value) > GATE_EXPECT_MAX) {
        error_setg(errp, "gemlab-gate: expect: longer than %d bytes",
                   GATE_EXPECT_MAX);
        return;
    }
    g_free(g->next_expect);
    g->next_expect = g_strdup(value);
}

static char *gate_get_expect(Object *obj, Error **errp)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(obj);

    return g_strdup(g->state == GATE_SCAN && g->pat ? g->pat : "");
}

static void gate_set_send(Object *obj, const char *value, Error **errp)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(obj);
    GateStep *s;
    size_t n = strlen(value);

    if (n > GATE_DATA_MAX) {
        error_setg(errp, "gemlab-gate: send: longer than %d bytes",
                   GATE_DATA_MAX);
        return;
    }
    if (g_queue_get_length(&g->steps) >= GATE_QUEUE_MAX) {
        error_setg(errp, "gemlab-gate: send: %d steps already queued",
                   GATE_QUEUE_MAX);
        return;
    }
    s = g_new0(GateStep, 1);
    s->data = g_byte_array_sized_new(n);
    g_byte_array_append(s->data, (const uint8_t *)value, n);
    s->expect = g->next_expect;
    s->delay_ns = g->next_delay_ns;
    s->timeout_ns = g->next_timeout_ns;
    g->next_expect = NULL;
    g->next_delay_ns = 0;
    g->next_timeout_ns = 0;
    gate_send(g, s);
}

static char *gate_get_send(Object *obj, Error **errp)
{
    return g_strdup("");
}

static void gate_get_u64(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    uint64_t val = *(uint64_t *)opaque;

    visit_type_uint64(v, name, &val, errp);
}

static void gate_get_i64(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    int64_t val = *(int64_t *)opaque;

    visit_type_int(v, name, &val, errp);
}

/* delay-ns, timeout-ns: staged for the next "send" (@opaque) */
static void gate_set_ns(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    uint64_t val;

    if (!visit_type_uint64(v, name, &val, errp)) {
        return;
    }
    if (val > (uint64_t)INT64_MAX / 4) {
        error_setg(errp, "gemlab-gate: %s: %" PRIu64 " is too large",
                   name, val);
        return;
    }
    *(uint64_t *)opaque = val;
}

static void gate_get_clock(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    int64_t val = gate_now();

    visit_type_int(v, name, &val, errp);
}

static void gate_get_state(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    static const char *const names[] = { "idle", "scan", "timer", "held" };
    GemlabGate *g = CHARDEV_GEMLAB_GATE(obj);
    char *s = g_strdup(names[g->state]);

    visit_type_str(v, name, &s, errp);
    g_free(s);
}

static void gate_instance_init(Object *obj)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(obj);

    g_queue_init(&g->steps);
    g->out = g_byte_array_new();
    g->last_match_ns = -1;
    g->last_inject_ns = -1;
    object_property_add(obj, "delay-ns", "uint64", gate_get_u64, gate_set_ns,
                        NULL, &g->next_delay_ns);
    object_property_add(obj, "timeout-ns", "uint64", gate_get_u64, gate_set_ns,
                        NULL, &g->next_timeout_ns);
    object_property_add(obj, "timeouts", "uint64", gate_get_u64, NULL,
                        NULL, &g->ntimeouts);
    object_property_add(obj, "output-bytes", "uint64", gate_get_u64, NULL,
                        NULL, &g->out_total);
    object_property_add(obj, "clock-ns", "int", gate_get_clock, NULL,
                        NULL, NULL);
    object_property_add(obj, "sent", "uint64", gate_get_u64, NULL,
                        NULL, &g->nsent);
    object_property_add(obj, "unsynced-sends", "uint64", gate_get_u64, NULL,
                        NULL, &g->nunsynced);
    object_property_add(obj, "holds", "uint64", gate_get_u64, NULL,
                        NULL, &g->nholds);
    object_property_add(obj, "output-dropped", "uint64", gate_get_u64, NULL,
                        NULL, &g->out_dropped);
    object_property_add(obj, "last-match-ns", "int", gate_get_i64, NULL,
                        NULL, &g->last_match_ns);
    object_property_add(obj, "last-inject-ns", "int", gate_get_i64, NULL,
                        NULL, &g->last_inject_ns);
    object_property_add(obj, "state", "str", gate_get_state, NULL, NULL, NULL);
    object_property_add_str(obj, "expect", gate_get_expect, gate_set_expect);
    object_property_add_str(obj, "send", gate_get_send, gate_set_send);
}

static void gate_step_free(gpointer p)
{
    GateStep *s = p;

    g_byte_array_unref(s->data);
    g_free(s->expect);
    g_free(s);
}

static void gate_finalize(Object *obj)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(obj);

    if (g->out_watch) {
        g_source_remove(g->out_watch);
    }
    qemu_chr_fe_deinit(&g->inner, false);
    if (g->timer) {
        timer_free(g->timer);
    }
    if (g->vmse) {
        qemu_del_vm_change_state_handler(g->vmse);
    }
    g_queue_clear_full(&g->steps, gate_step_free);
    if (g->feed) {
        g_byte_array_unref(g->feed);
    }
    g_byte_array_unref(g->out);
    g_free(g->pat);
    g_free(g->next_expect);
}

static void gate_open(Chardev *chr, ChardevBackend *backend,
                      bool *be_opened, Error **errp)
{
    GemlabGate *g = CHARDEV_GEMLAB_GATE(chr);
    ChardevMux *m = backend->u.mux.data;
    Chardev *inner;

    inner = qemu_chr_find(m->chardev);
    if (!inner) {
        error_setg(errp, "gemlab-gate: chardev=%s: no such chardev",
                   m->chardev);
        return;
    }
    if (!qemu_chr_fe_init(&g->inner, inner, errp)) {
        return;
    }
    g->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gate_timer_cb, g);
    g->vmse = qemu_add_vm_change_state_handler(gate_vm_state, g);
    /* opened when the inner one is (its CHR_EVENT_OPENED is forwarded) */
    *be_opened = false;
}

static void gate_parse(QemuOpts *opts, ChardevBackend *backend, Error **errp)
{
    const char *inner = qemu_opt_get(opts, "chardev");
    ChardevMux *m;

    if (!inner) {
        error_setg(errp, "chardev: gemlab-gate: no chardev given "
                   "(chardev=ID of the console socket)");
        return;
    }
    backend->type = CHARDEV_BACKEND_KIND_MUX;
    m = backend->u.mux.data = g_new0(ChardevMux, 1);
    qemu_chr_parse_common(opts, qapi_ChardevMux_base(m));
    m->chardev = g_strdup(inner);
}

static void gate_class_init(ObjectClass *oc, void *data)
{
    ChardevClass *cc = CHARDEV_CLASS(oc);

    cc->parse = gate_parse;
    cc->open = gate_open;
    cc->chr_write = gate_chr_write;
    cc->chr_accept_input = gate_chr_accept_input;
    cc->chr_update_read_handler = gate_update_read_handlers;
}

static const TypeInfo gate_type_info = {
    .name = TYPE_CHARDEV_GEMLAB_GATE,
    .parent = TYPE_CHARDEV,
    .instance_size = sizeof(GemlabGate),
    .instance_init = gate_instance_init,
    .instance_finalize = gate_finalize,
    .class_init = gate_class_init,
};

static void gate_register_types(void)
{
    type_register_static(&gate_type_info);
}

type_init(gate_register_types);
