/* SPDX-License-Identifier: MIT */
/* cli.h - the strict command-line parser of the programs in examples/
 * (example code, not the installed library).
 *
 * A program lists its options in a table of cli_opt: name, value, range,
 * default and what it does.  cli_next walks argv one option at a time;
 * the typed readers (cli_uint, cli_real, cli_choice, the list readers)
 * parse the whole value and check it against the option's range.  Nothing
 * is truncated, wrapped or defaulted silently:
 *
 *   - whole numbers are decimal digits, or 0x and hexadecimal digits; no
 *     sign, no spaces, no trailing text, no overflow;
 *   - real numbers are finite (no nan, no inf), with no trailing text;
 *   - a value outside the option's range is refused, never clamped;
 *   - an option given twice is refused, unless its kind carries CLI_MANY
 *     (an option that adds one item to a list each time, such as a fault).
 *
 * Every error is one line on stderr that names the program, the option and
 * the value, says what is wrong and what the option accepts:
 *
 *     seastar_sim: --cycles "-5": out of range; accepted: 1 to 10000000000
 *
 * and the program exits with status 2 (CLI_EXIT_USAGE).  --help (and -h)
 * prints every option with its accepted values and default on stdout and
 * exits 0.
 *
 * Use:
 *
 *     static const cli_opt opts[] = {
 *         { "--cycles", NULL, "N", CLI_INT, 1, 1000, 0, 0, NULL, "100", "cycles to run" },
 *         { "--quiet", "-q", NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "no progress" },
 *     };
 *     cli c;
 *     cli_init(&c, "prog", "usage: prog [options]\n", NULL, opts, 2, argc, argv);
 *     while (cli_next(&c)) {
 *         if (cli_is(&c, "--cycles")) cycles = cli_uint(&c);
 *         else if (cli_is(&c, "--quiet")) quiet = 1;
 *         else cli_unhandled(&c);
 *     }
 */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Exit status of a command-line error. */
#define CLI_EXIT_USAGE 2

/** Kinds of option. */
enum {
    CLI_FLAG,   /**< no value */
    CLI_INT,    /**< a whole number in lo..hi (or a list of them) */
    CLI_REAL,   /**< a finite real number in rlo..rhi (or a list of them) */
    CLI_CHOICE, /**< one of the words of accept, separated by '|' */
    CLI_TEXT    /**< any text (a file name, a label) */
};

/** Or'ed into an option's kind (CLI_TEXT | CLI_MANY): the option may be
 *  given more than once, each time adding to a list.  Any other option
 *  given twice stops the program. */
#define CLI_MANY 0x100

/* The kind of an option without CLI_MANY. */
#define CLI__KIND(o) ((o)->kind & ~CLI_MANY)

/** One option of a program. */
typedef struct cli_opt {
    const char *name;   /**< "--cycles" */
    const char *alias;  /**< a short spelling ("-q"), or NULL */
    const char *meta;   /**< the value's placeholder in --help ("N"); NULL for a flag */
    int kind;           /**< CLI_FLAG, CLI_INT, ..., with CLI_MANY if repeatable */
    uint64_t lo, hi;    /**< CLI_INT: the accepted range (of each list item) */
    double rlo, rhi;    /**< CLI_REAL: the accepted range (of each list item) */
    const char *accept; /**< CLI_CHOICE: "a|b|c"; otherwise NULL (the range
                             is printed) or a description of the accepted
                             values where a range does not say it all */
    const char *def;    /**< the default, as --help prints it, or NULL */
    const char *help;   /**< what the option does; '\n' starts a new line */
} cli_opt;

/** The state of one walk over argv. */
typedef struct cli {
    const char *prog;       /**< program name for messages */
    const char *usage;      /**< the start of --help */
    const char *notes;      /**< the end of --help, or NULL */
    const cli_opt *opts;    /**< the option table */
    int num_opts;           /**< its entries */
    int argc;               /**< argv as given to main */
    char **argv;
    int next;               /**< index of the next argument */
    const cli_opt *opt;     /**< the option just read by cli_next */
    const char *val;        /**< its value (NULL for a flag) */
    unsigned char seen[64]; /**< seen[i]: option i was given */
    int seen_at[64];        /**< the argv index where option i was first given */
} cli;

/* The accepted values of an option, as text. */
static inline const char *cli__accept(const cli_opt *o, char *buf, size_t n) {
    if (o->accept) {
        if (CLI__KIND(o) != CLI_CHOICE) return o->accept;
        {
            size_t k = 0;
            const char *s;
            for (s = o->accept; *s && k + 3 < n; s++) {
                if (*s == '|') { buf[k++] = ','; buf[k++] = ' '; }
                else buf[k++] = *s;
            }
            buf[k] = 0;
            return buf;
        }
    }
    if (CLI__KIND(o) == CLI_INT)
        snprintf(buf, n, "%llu to %llu", (unsigned long long)o->lo, (unsigned long long)o->hi);
    else if (CLI__KIND(o) == CLI_REAL)
        snprintf(buf, n, "%g to %g", o->rlo, o->rhi);
    else
        snprintf(buf, n, "any text");
    return buf;
}

/** Print --help: the usage text, then every option with what it accepts and
 *  its default, then the notes. */
static inline void cli_help(const cli *c, FILE *f) {
    int i;
    fputs(c->usage, f);
    fputs("\noptions:\n", f);
    for (i = 0; i < c->num_opts; i++) {
        const cli_opt *o = &c->opts[i];
        char head[64], acc[256];
        const char *h;
        if (o->alias) snprintf(head, sizeof head, "%s, %s%s%s", o->alias, o->name, o->meta ? " " : "", o->meta ? o->meta : "");
        else snprintf(head, sizeof head, "%s%s%s", o->name, o->meta ? " " : "", o->meta ? o->meta : "");
        fprintf(f, "  %-22s", head);
        if (strlen(head) > 22) fprintf(f, "\n  %-22s", "");
        for (h = o->help; *h; h++) {
            fputc(*h, f);
            if (*h == '\n') fprintf(f, "  %-22s", "");
        }
        fputc('\n', f);
        if (CLI__KIND(o) != CLI_FLAG) {
            fprintf(f, "  %-22s[%s", "", cli__accept(o, acc, sizeof acc));
            if (o->def) fprintf(f, "; default %s", o->def);
            if (o->kind & CLI_MANY) fprintf(f, "; may be repeated");
            fprintf(f, "]\n");
        }
    }
    fputs("\nWhole numbers are decimal, or hexadecimal after 0x.  A bad value, or an\n"
          "option given twice that is not marked \"may be repeated\", stops the\n"
          "program with one line on stderr and exit status 2.\n", f);
    if (c->notes) { fputc('\n', f); fputs(c->notes, f); }
}

/** Stop with a message about the whole command line (for example two
 *  options that contradict each other): "PROG: message", exit 2. */
static inline void cli_fail(const cli *c, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", c->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see --help)\n");
    exit(CLI_EXIT_USAGE);
}

/* Find an option by name or alias; NULL if none. */
static inline const cli_opt *cli__find(const cli *c, const char *name) {
    int i;
    for (i = 0; i < c->num_opts; i++)
        if (!strcmp(c->opts[i].name, name) || (c->opts[i].alias && !strcmp(c->opts[i].alias, name)))
            return &c->opts[i];
    return NULL;
}

/** Stop with a message about one value of one option:
 *  PROG: OPTION "VALUE": message; accepted: ...  (exit 2).  opt may be a
 *  name of the table; value may be NULL. */
static inline void cli_bad_value(const cli *c, const char *opt, const char *value, const char *fmt, ...) {
    const cli_opt *o = cli__find(c, opt);
    char acc[256];
    va_list ap;
    fprintf(stderr, "%s: %s", c->prog, opt);
    if (value) fprintf(stderr, " \"%s\"", value);
    fprintf(stderr, ": ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (o && CLI__KIND(o) != CLI_FLAG && !(CLI__KIND(o) == CLI_TEXT && !o->accept))
        fprintf(stderr, "; accepted: %s", cli__accept(o, acc, sizeof acc));
    fprintf(stderr, "\n");
    exit(CLI_EXIT_USAGE);
}

/* The same for the option being read. */
static inline void cli__bad(const cli *c, const char *what) {
    cli_bad_value(c, c->opt->name, c->val, "%s", what);
}

/** Start a walk over argv.  The table may hold up to 64 options. */
static inline void cli_init(cli *c, const char *prog, const char *usage, const char *notes,
                            const cli_opt *opts, int num_opts, int argc, char **argv) {
    memset(c, 0, sizeof *c);
    c->prog = prog;
    c->usage = usage;
    c->notes = notes;
    c->opts = opts;
    c->num_opts = num_opts < 64 ? num_opts : 64;
    c->argc = argc;
    c->argv = argv;
    c->next = 1;
}

/** Read the next option and its value.  Answers --help / -h (exit 0) and
 *  stops on an unknown option, a missing value, a stray argument or an
 *  option given a second time without CLI_MANY (exit 2).  Returns the
 *  option, or NULL when argv is used up. */
static inline const cli_opt *cli_next(cli *c) {
    const char *a;
    if (c->next >= c->argc) { c->opt = NULL; c->val = NULL; return NULL; }
    a = c->argv[c->next++];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { cli_help(c, stdout); exit(0); }
    c->opt = cli__find(c, a);
    if (!c->opt) {
        if (a[0] == '-') cli_fail(c, "unknown option \"%s\"", a);
        cli_fail(c, "unexpected argument \"%s\" (every value follows its option)", a);
    }
    c->val = NULL;
    if (CLI__KIND(c->opt) != CLI_FLAG) {
        if (c->next >= c->argc) cli_bad_value(c, c->opt->name, NULL, "missing value");
        c->val = c->argv[c->next++];
    }
    {
        int i = (int)(c->opt - c->opts), first = c->seen_at[i];
        if (c->seen[i] && !(c->opt->kind & CLI_MANY)) {
            if (c->val)
                cli_fail(c, "%s given twice (\"%s\", then \"%s\"); give it once", c->opt->name,
                         c->argv[first + 1], c->val);
            cli_fail(c, "%s given twice; give it once", c->opt->name);
        }
        if (!c->seen[i]) c->seen_at[i] = c->next - (c->val ? 2 : 1);
        c->seen[i] = 1;
    }
    return c->opt;
}

/** Whether the option just read is `name` (the table must hold it). */
static inline int cli_is(const cli *c, const char *name) {
    if (!cli__find(c, name)) {
        fprintf(stderr, "%s: internal error: option %s is not in the table\n", c->prog, name);
        abort();
    }
    return !strcmp(c->opt->name, name);
}

/** Whether an option was given (after the walk). */
static inline int cli_given(const cli *c, const char *name) {
    const cli_opt *o = cli__find(c, name);
    if (!o) {
        fprintf(stderr, "%s: internal error: option %s is not in the table\n", c->prog, name);
        abort();
    }
    return c->seen[o - c->opts];
}

/** The program has no code for the option just read (a programming error). */
static inline void cli_unhandled(const cli *c) {
    fprintf(stderr, "%s: internal error: option %s is not handled\n", c->prog, c->opt->name);
    abort();
}

/** Check, before a long run, that the file `path` named by option `opt`
 *  can be written: stop with one line (exit 2) if not.  An existing file is
 *  left as it is; a file this check creates is removed again. */
static inline void cli_check_output(const cli *c, const char *opt, const char *path) {
    FILE *f = fopen(path, "r");
    int existed = f != NULL;
    if (f) fclose(f);
    if (!*path) cli_bad_value(c, opt, path, "an empty file name");
    f = fopen(path, "a");
    if (!f) cli_bad_value(c, opt, path, "cannot be written (%s)", strerror(errno));
    fclose(f);
    if (!existed) remove(path);
}

/* Parse s[0..len) as a whole number: decimal, or 0x hexadecimal.  Returns
 * 0 on success, 1 if it is not a number, 2 if it is a negative number, 3
 * if it does not fit in 64 bits. */
static inline int cli__parse_u64(const char *s, size_t len, uint64_t *out) {
    uint64_t v = 0;
    size_t i = 0;
    int base = 10, digits = 0;
    if (len > 1 && s[0] == '-' && s[1] >= '0' && s[1] <= '9') {
        for (i = 1; i < len; i++) if (s[i] < '0' || s[i] > '9') return 1;
        return 2;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; i = 2; }
    for (; i < len; i++) {
        char ch = s[i];
        unsigned d;
        if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
        else if (base == 16 && ch >= 'a' && ch <= 'f') d = (unsigned)(ch - 'a' + 10);
        else if (base == 16 && ch >= 'A' && ch <= 'F') d = (unsigned)(ch - 'A' + 10);
        else return 1;
        if (v > (UINT64_MAX - d) / (uint64_t)base) return 3;
        v = v * (uint64_t)base + d;
        digits++;
    }
    if (digits == 0) return 1;
    *out = v;
    return 0;
}

/* One whole-number item s[0..len) of the option being read, in its range. */
static inline uint64_t cli__uint_item(const cli *c, const char *s, size_t len) {
    uint64_t v = 0;
    int e = cli__parse_u64(s, len, &v);
    char item[64];
    snprintf(item, sizeof item, "%.*s", (int)(len < 40 ? len : 40), s);
    if (e == 1) {
        if (len == strlen(c->val)) cli__bad(c, "not a whole number");
        cli_bad_value(c, c->opt->name, c->val, "\"%s\" is not a whole number", item);
    }
    if (e == 2 || e == 3 || v < c->opt->lo || v > c->opt->hi) {
        if (len == strlen(c->val)) cli__bad(c, "out of range");
        cli_bad_value(c, c->opt->name, c->val, "%s is out of range", item);
    }
    return v;
}

/** The value of the option just read (a CLI_INT) as a whole number in its
 *  range. */
static inline uint64_t cli_uint(const cli *c) {
    return cli__uint_item(c, c->val, strlen(c->val));
}

/* One real item s[0..len) of the option being read, in its range. */
static inline double cli__real_item(const cli *c, const char *s, size_t len) {
    char buf[128], *end;
    double v;
    if (len == 0 || len >= sizeof buf) cli__bad(c, "not a number");
    memcpy(buf, s, len);
    buf[len] = 0;
    if (!((buf[0] >= '0' && buf[0] <= '9') || buf[0] == '.' || buf[0] == '-' || buf[0] == '+'))
        cli__bad(c, "not a number");
    v = strtod(buf, &end);
    if (end == buf || *end) cli__bad(c, "not a number");
    if (!(v == v) || v - v != 0) cli__bad(c, "not a finite number");
    if (v < c->opt->rlo || v > c->opt->rhi) {
        if (len == strlen(c->val)) cli__bad(c, "out of range");
        cli_bad_value(c, c->opt->name, c->val, "%s is out of range", buf);
    }
    return v;
}

/** The value of the option just read (a CLI_REAL) as a finite real number
 *  in its range. */
static inline double cli_real(const cli *c) {
    return cli__real_item(c, c->val, strlen(c->val));
}

/** The value of the option just read (a CLI_CHOICE): the index of the word
 *  of the option's accept list it equals. */
static inline int cli_choice(const cli *c) {
    const char *w = c->opt->accept;
    size_t n = strlen(c->val);
    int i = 0;
    while (w && *w) {
        const char *bar = strchr(w, '|');
        size_t len = bar ? (size_t)(bar - w) : strlen(w);
        if (len == n && !strncmp(w, c->val, n)) return i;
        i++;
        w = bar ? bar + 1 : w + len;
    }
    cli__bad(c, "not one of the choices");
    return -1;
}

/* Split the value at sep into at most max items; stops with an error on an
 * empty item or on too many or too few.  Returns the count; start[i] and
 * len[i] delimit item i. */
static inline int cli__split(const cli *c, char sep, int min_n, int max_n,
                             const char **start, size_t *len) {
    const char *s = c->val;
    int n = 0;
    for (;;) {
        const char *e = strchr(s, sep);
        size_t l = e ? (size_t)(e - s) : strlen(s);
        if (l == 0) cli__bad(c, "an empty item");
        if (n == max_n) {
            char what[64];
            snprintf(what, sizeof what, "more than %d value%s", max_n, max_n == 1 ? "" : "s");
            cli__bad(c, what);
        }
        start[n] = s;
        len[n] = l;
        n++;
        if (!e) break;
        s = e + 1;
    }
    if (n < min_n) {
        char what[64];
        snprintf(what, sizeof what, "%d value%s where %d %s needed", n, n == 1 ? "" : "s", min_n,
                 min_n == 1 ? "is" : "are");
        cli__bad(c, what);
    }
    return n;
}

/** The value of the option just read as a list of whole numbers separated
 *  by sep, min_n..max_n (at most 64) of them, each in the option's range.
 *  Returns the count. */
static inline int cli_uint_list(const cli *c, char sep, int min_n, int max_n, uint64_t *out) {
    const char *start[64];
    size_t len[64];
    int n, i;
    if (max_n > 64) max_n = 64;
    n = cli__split(c, sep, min_n, max_n, start, len);
    for (i = 0; i < n; i++) out[i] = cli__uint_item(c, start[i], len[i]);
    return n;
}

/** The same for real numbers. */
static inline int cli_real_list(const cli *c, char sep, int min_n, int max_n, double *out) {
    const char *start[64];
    size_t len[64];
    int n, i;
    if (max_n > 64) max_n = 64;
    n = cli__split(c, sep, min_n, max_n, start, len);
    for (i = 0; i < n; i++) out[i] = cli__real_item(c, start[i], len[i]);
    return n;
}

/** Write text as one CSV field (RFC 4180): in double quotes, each quote
 *  doubled, when it holds a comma, quote, carriage return or newline or
 *  when always_quote is non-zero; else as it is. */
static inline void cli_csv_field(FILE *f, const char *s, int always_quote) {
    if (!always_quote && !strpbrk(s, ",\"\r\n")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

#endif /* SIM_CLI_H */
