/* Status names and the per-thread error message. */
#include "runtime/error.h"

#include <stdio.h>
#include <string.h>

enum { ERROR_CAPACITY = 1024 };

static _Thread_local char error_message[ERROR_CAPACITY];

const char *tsr_status_name(int status)
{
    switch (status) {
#define STATUS_NAME_(name, value, text)                                                   \
    case value:                                                                            \
        return "TSR_" #name;
        TSR_STATUS_LIST(STATUS_NAME_)
#undef STATUS_NAME_
    }
    return "unknown status";
}

const char *tsr_status_string(int status)
{
    switch (status) {
#define STATUS_TEXT_(name, value, text)                                                   \
    case value:                                                                            \
        return text;
        TSR_STATUS_LIST(STATUS_TEXT_)
#undef STATUS_TEXT_
    }
    return "unknown status";
}

const char *tsr_last_error(void)
{
    return error_message;
}

void tsr_clear_error(void)
{
    error_message[0] = '\0';
}

int tsr__set_error_v(int status, const char *fmt, va_list args)
{
    vsnprintf(error_message, sizeof error_message, fmt, args);
    return status;
}

int tsr__set_error(int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    tsr__set_error_v(status, fmt, args);
    va_end(args);
    return status;
}

void tsr__prefix_error(const char *fmt, ...)
{
    char prefix[256];
    char old[ERROR_CAPACITY];
    va_list args;
    va_start(args, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, args);
    va_end(args);
    memcpy(old, error_message, sizeof old);
    /* the prefix is short; the old message is cut at the end if need be */
    snprintf(error_message, sizeof error_message, "%s: %.*s", prefix,
             (int)(sizeof error_message - strlen(prefix) - 3), old);
}

int tsr__rename_error(const char *op, const char *inner, int status)
{
    size_t n = strlen(inner);
    if (status == TSR_OK || strncmp(error_message, inner, n) != 0 || error_message[n] != ':')
        return status;
    char rest[ERROR_CAPACITY];
    snprintf(rest, sizeof rest, "%s", error_message + n + 1);
    /* the old message is cut at the end if need be */
    snprintf(error_message, sizeof error_message, "%s:%.*s", op,
             (int)(sizeof error_message - strlen(op) - 2), rest);
    return status;
}

int tsr__claim_error(const char *op, int status)
{
    size_t n = strlen(op);
    if (status == TSR_OK || (strncmp(error_message, op, n) == 0 && error_message[n] == ':'))
        return status;
    size_t word = strspn(error_message, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (word > 0 && error_message[word] == ':' && error_message[word + 1] == ' ') {
        char inner[ERROR_CAPACITY];
        snprintf(inner, sizeof inner, "%.*s", (int)word, error_message);
        return tsr__rename_error(op, inner, status);
    }
    tsr__prefix_error("%s", op);
    return status;
}
