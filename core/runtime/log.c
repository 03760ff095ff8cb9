/* TESSERA_LOG: diagnostics by topic, in release builds too. */
#include "runtime/backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether `topic` appears as a whole comma-separated word of TESSERA_LOG. */
bool tsr__log_enabled(const char *topic)
{
    const char *env = getenv("TESSERA_LOG");
    if (!env || !*env)
        return false;
    size_t len = strlen(topic);
    for (const char *p = env; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if ((n == len && strncmp(p, topic, n) == 0) || (n == 3 && strncmp(p, "all", 3) == 0))
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

void tsr__log(const char *topic, const char *fmt, ...)
{
    if (!tsr__log_enabled(topic))
        return;
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "tessera[%s]: ", topic);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}
