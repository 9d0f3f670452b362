/* json.c: a small JSON reader (RFC 8259) into an arena tree, for baselines and tests. Strict:
 * no comments, no trailing commas, strings must be valid UTF-8 with valid escapes. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "str.h"

#include "banned.h"

typedef struct jp {
    arena *a;
    const char *s;
    ptrdiff_t len, i;
    const char *err;
    int depth;
} jp;

static int fail(jp *p, const char *why)
{
    if (!p->err)
        p->err = why;
    return 0;
}

static void ws(jp *p)
{
    while (p->i < p->len) {
        char c = p->s[p->i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->i++;
    }
}

static int hex4(jp *p, unsigned *out)
{
    if (p->len - p->i < 4)
        return fail(p, "truncated \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p->s[p->i++];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fail(p, "bad \\u escape");
        v = v * 16 + d;
    }
    *out = v;
    return 1;
}

static void put_utf8(buf *b, unsigned cp)
{
    if (cp < 0x80) {
        buf_addc(b, (char)cp);
    } else if (cp < 0x800) {
        buf_addc(b, (char)(0xc0 | (cp >> 6)));
        buf_addc(b, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        buf_addc(b, (char)(0xe0 | (cp >> 12)));
        buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        buf_addc(b, (char)(0x80 | (cp & 0x3f)));
    } else {
        buf_addc(b, (char)(0xf0 | (cp >> 18)));
        buf_addc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
        buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        buf_addc(b, (char)(0x80 | (cp & 0x3f)));
    }
}


static int string(jp *p, hp_str *out)
{
    p->i++; /* the opening quote */
    buf b;
    buf_init(&b, p->a, 32);
    for (;;) {
        if (p->i >= p->len)
            return fail(p, "unterminated string");
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '"') {
            p->i++;
            break;
        }
        if (c < 0x20)
            return fail(p, "control character in string");
        if (c == '\\') {
            p->i++;
            if (p->i >= p->len)
                return fail(p, "unterminated string");
            char e = p->s[p->i++];
            switch (e) {
            case '"': buf_addc(&b, '"'); break;
            case '\\': buf_addc(&b, '\\'); break;
            case '/': buf_addc(&b, '/'); break;
            case 'b': buf_addc(&b, '\b'); break;
            case 'f': buf_addc(&b, '\f'); break;
            case 'n': buf_addc(&b, '\n'); break;
            case 'r': buf_addc(&b, '\r'); break;
            case 't': buf_addc(&b, '\t'); break;
            case 'u': {
                unsigned cp;
                if (!hex4(p, &cp))
                    return 0;
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    unsigned lo;
                    if (p->len - p->i < 2 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                        return fail(p, "unpaired surrogate");
                    p->i += 2;
                    if (!hex4(p, &lo))
                        return 0;
                    if (lo < 0xdc00 || lo > 0xdfff)
                        return fail(p, "unpaired surrogate");
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                    return fail(p, "unpaired surrogate");
                }
                put_utf8(&b, cp);
                break;
            }
            default:
                return fail(p, "bad escape");
            }
            continue;
        }
        int n = str_utf8_len((const unsigned char *)p->s + p->i, p->len - p->i);
        if (!n)
            return fail(p, "invalid UTF-8 in string");
        buf_add(&b, p->s + p->i, n);
        p->i += n;
    }
    buf_cstr(&b);
    *out = buf_str(&b);
    return 1;
}

static int number(jp *p, json *v)
{
    ptrdiff_t start = p->i;
    int integral = 1;
    if (p->s[p->i] == '-')
        p->i++;
    if (p->i >= p->len)
        return fail(p, "bad number");
    if (p->s[p->i] == '0') {
        p->i++;
    } else if (p->s[p->i] >= '1' && p->s[p->i] <= '9') {
        while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    } else {
        return fail(p, "bad number");
    }
    if (p->i < p->len && p->s[p->i] == '.') {
        integral = 0;
        p->i++;
        if (p->i >= p->len || !(p->s[p->i] >= '0' && p->s[p->i] <= '9'))
            return fail(p, "bad number");
        while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    }
    if (p->i < p->len && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        integral = 0;
        p->i++;
        if (p->i < p->len && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (p->i >= p->len || !(p->s[p->i] >= '0' && p->s[p->i] <= '9'))
            return fail(p, "bad number");
        while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    }
    char tmp[64];
    ptrdiff_t n = p->i - start;
    if (n >= (ptrdiff_t)sizeof tmp) {
        v->number = 0;
    } else {
        memcpy(tmp, p->s + start, (size_t)n);
        tmp[n] = 0;
        v->number = strtod(tmp, NULL);
    }
    v->kind = JSON_NUMBER;
    v->integral = integral;
    return 1;
}

static int literal(jp *p, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(p->len - p->i) < n || memcmp(p->s + p->i, word, n) != 0)
        return fail(p, "unexpected character");
    p->i += (ptrdiff_t)n;
    return 1;
}

static int value(jp *p, json *v);

/* A growable list of values (and keys), copied into place when complete. */
typedef struct list {
    json *v;
    hp_str *k;
    ptrdiff_t n, cap;
} list;

static void list_push(jp *p, list *l, const json *v, hp_str key, int with_key)
{
    if (l->n == l->cap) {
        ptrdiff_t ncap = l->cap ? l->cap * 2 : 8;
        l->v = arena_grow(p->a, l->v, l->cap * (ptrdiff_t)sizeof(json),
                          ncap * (ptrdiff_t)sizeof(json), _Alignof(json));
        if (with_key)
            l->k = arena_grow(p->a, l->k, l->cap * (ptrdiff_t)sizeof(hp_str),
                              ncap * (ptrdiff_t)sizeof(hp_str), _Alignof(hp_str));
        l->cap = ncap;
    }
    l->v[l->n] = *v;
    if (with_key)
        l->k[l->n] = key;
    l->n++;
}

static int array(jp *p, json *v)
{
    p->i++;
    list l = {0};
    ws(p);
    if (p->i < p->len && p->s[p->i] == ']') {
        p->i++;
    } else {
        for (;;) {
            json item;
            if (!value(p, &item))
                return 0;
            list_push(p, &l, &item, str_make("", 0), 0);
            ws(p);
            if (p->i >= p->len)
                return fail(p, "unterminated array");
            if (p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->s[p->i] == ']') {
                p->i++;
                break;
            }
            return fail(p, "expected ',' or ']'");
        }
    }
    v->kind = JSON_ARRAY;
    v->items = l.v;
    v->n = l.n;
    return 1;
}

static int object(jp *p, json *v)
{
    p->i++;
    list l = {0};
    ws(p);
    if (p->i < p->len && p->s[p->i] == '}') {
        p->i++;
    } else {
        for (;;) {
            ws(p);
            if (p->i >= p->len || p->s[p->i] != '"')
                return fail(p, "expected a key");
            hp_str key;
            if (!string(p, &key))
                return 0;
            ws(p);
            if (p->i >= p->len || p->s[p->i] != ':')
                return fail(p, "expected ':'");
            p->i++;
            json item;
            if (!value(p, &item))
                return 0;
            list_push(p, &l, &item, key, 1);
            ws(p);
            if (p->i >= p->len)
                return fail(p, "unterminated object");
            if (p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->s[p->i] == '}') {
                p->i++;
                break;
            }
            return fail(p, "expected ',' or '}'");
        }
    }
    v->kind = JSON_OBJECT;
    v->items = l.v;
    v->keys = l.k;
    v->n = l.n;
    return 1;
}

static int value(jp *p, json *v)
{
    memset(v, 0, sizeof *v);
    ws(p);
    if (p->i >= p->len)
        return fail(p, "unexpected end of input");
    if (++p->depth > 512)
        return fail(p, "nesting too deep");
    int ok;
    switch (p->s[p->i]) {
    case '{': ok = object(p, v); break;
    case '[': ok = array(p, v); break;
    case '"':
        v->kind = JSON_STRING;
        ok = string(p, &v->str);
        break;
    case 't':
        v->kind = JSON_BOOL;
        v->boolean = 1;
        ok = literal(p, "true");
        break;
    case 'f':
        v->kind = JSON_BOOL;
        ok = literal(p, "false");
        break;
    case 'n':
        v->kind = JSON_NULL;
        ok = literal(p, "null");
        break;
    default:
        if (p->s[p->i] == '-' || (p->s[p->i] >= '0' && p->s[p->i] <= '9'))
            ok = number(p, v);
        else
            ok = fail(p, "unexpected character");
        break;
    }
    p->depth--;
    return ok;
}

json *json_parse(arena *a, const char *text, ptrdiff_t len, const char **err,
                 ptrdiff_t *erroff)
{
    jp p = {a, text ? text : "", text ? len : 0, 0, NULL, 0};
    json *v = NEW(a, json, 1);
    int ok = v && value(&p, v);
    if (ok) {
        ws(&p);
        if (p.i < p.len)
            ok = fail(&p, "trailing characters");
    }
    if (!ok) {
        if (err)
            *err = p.err ? p.err : "out of memory";
        if (erroff)
            *erroff = p.i;
        return NULL;
    }
    return v;
}

const json *json_get(const json *obj, const char *key)
{
    if (!obj || obj->kind != JSON_OBJECT)
        return NULL;
    size_t n = strlen(key);
    for (ptrdiff_t i = 0; i < obj->n; i++)
        if ((size_t)obj->keys[i].len == n && memcmp(obj->keys[i].s, key, n) == 0)
            return &obj->items[i];
    return NULL;
}
