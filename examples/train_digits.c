/* Trains a small multilayer perceptron on the UCI handwritten digits
 * (examples/data/digits.csv.gz: 1797 images of 8x8 pixels) with tessera's
 * public API only: linear layers, ReLU, cross_entropy, backward, Adam.
 *
 *   train_digits                       15 epochs, loss and held-out accuracy per epoch
 *   train_digits --epochs 3 --expect-accuracy 0.9
 *   train_digits --steps 1000          N steps, peak and current RSS every 100 steps
 *   train_digits --save DIR            also save the parameters and Adam's state
 *
 * Runs on the default backend (TESSERA_BACKEND chooses another). Exit status:
 * 0 on success, 1 on an error or an accuracy below --expect-accuracy, 2 on a
 * usage error. */
#define _POSIX_C_SOURCE 200809L

#include "digits_data.h"
#include "digits_train.h"

#include <tessera/tessera.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TRAIN_DIGITS_DATA
#define TRAIN_DIGITS_DATA "examples/data/digits.csv.gz"
#endif

enum { PIXELS = DIGITS_PIXELS, CLASSES = DIGITS_CLASSES };

typedef struct options {
    const char *data;
    int epochs;
    long steps; /* > 0: run this many steps instead of epochs */
    int hidden;
    int batch;
    double lr;
    double expect_accuracy; /* < 0: no check */
    unsigned long long seed;
    const char *save; /* a directory for the trained state, or NULL */
} options;

typedef struct model {
    tsr_tensor *params[4]; /* fc1.weight, fc1.bias, fc2.weight, fc2.bias */
} model;

static const char *const param_names[4] = {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"};

/* ======================================================================== */
/* The model                                                                 */
/* ======================================================================== */

static tsr_status model_create(int hidden, tsr_generator *gen, model *m)
{
    tsr_status st = tsr_linear_params_create(PIXELS, hidden, TSR_FLOAT32, NULL, gen, &m->params[0],
                                             &m->params[1]);
    if (st == TSR_OK)
        st = tsr_linear_params_create(hidden, CLASSES, TSR_FLOAT32, NULL, gen, &m->params[2],
                                      &m->params[3]);
    return st;
}

static void model_release(model *m)
{
    for (int i = 0; i < 4; i++)
        tsr_tensor_release(m->params[i]);
}

/* logits = fc2(relu(fc1(x))) */
static tsr_status forward(const model *m, const tsr_tensor *x, tsr_tensor **logits)
{
    tsr_tensor *h = NULL, *a = NULL;
    tsr_status st = tsr_linear(x, m->params[0], m->params[1], &h);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_RELU, h, &a);
    if (st == TSR_OK)
        st = tsr_linear(a, m->params[2], m->params[3], logits);
    tsr_tensor_release(h);
    tsr_tensor_release(a);
    return st;
}

/* forward as digits_train.h calls it. */
static tsr_status model_forward(const void *m, const tsr_tensor *x, tsr_tensor **logits)
{
    return forward(m, x, logits);
}

/* ======================================================================== */
/* Training                                                                  */
/* ======================================================================== */

typedef struct trainer {
    const options *opt;
    const digits_dataset *data;
    int *train_idx;
    int ntrain;
    tsr_tensor *x_test;
    int64_t *y_test;
    int ntest;
    tsr_generator *gen;
    model m;
    tsr_optimizer *optimizer;
    float *xbuf;
    int64_t *ybuf;
    int *order; /* this epoch's order of train_idx */
    long steps_done;
} trainer;

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* VmHWM (peak) and VmRSS (current) of this process in kB, from /proc. */
static void memory_kb(long *peak, long *current)
{
    *peak = *current = -1;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmHWM:", 6) == 0)
            *peak = strtol(line + 6, NULL, 10);
        else if (strncmp(line, "VmRSS:", 6) == 0)
            *current = strtol(line + 6, NULL, 10);
    }
    if (f)
        fclose(f);
}

/* One pass over the shuffled training rows, stopping early once max_steps
 * (if > 0) steps have run in total. The mean batch loss goes to *mean_loss. */
static tsr_status run_epoch(trainer *t, long max_steps, double *mean_loss)
{
    tsr_status st = digits_permutation(t->gen, t->ntrain, t->order);
    for (int i = 0; st == TSR_OK && i < t->ntrain; i++)
        t->order[i] = t->train_idx[t->order[i]];
    double sum = 0;
    int batches = 0;
    for (int start = 0; st == TSR_OK && start < t->ntrain; start += t->opt->batch) {
        if (max_steps > 0 && t->steps_done >= max_steps)
            break;
        int count = t->ntrain - start < t->opt->batch ? t->ntrain - start : t->opt->batch;
        tsr_tensor *x = NULL, *y = NULL;
        float loss = 0;
        st = digits_gather(t->data, t->order + start, count, t->xbuf, t->ybuf, &x, &y);
        if (st == TSR_OK)
            st = digits_train_step(model_forward, &t->m, t->optimizer, x, y, &loss);
        tsr_tensor_release(x);
        tsr_tensor_release(y);
        sum += loss;
        batches++;
        t->steps_done++;
        if (st == TSR_OK && max_steps > 0 && t->steps_done % 100 == 0) {
            long peak, current;
            memory_kb(&peak, &current);
            printf("step %5ld  loss %.4f  peak RSS (VmHWM) %ld kB  RSS %ld kB\n", t->steps_done,
                   loss, peak, current);
            fflush(stdout);
        }
    }
    *mean_loss = batches ? sum / batches : 0;
    return st;
}

static tsr_status train(trainer *t, double *accuracy)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tsr_status st = TSR_OK;
    int epoch = 0;
    for (;;) {
        bool by_steps = t->opt->steps > 0;
        if (by_steps ? t->steps_done >= t->opt->steps : epoch >= t->opt->epochs)
            break;
        double loss;
        st = run_epoch(t, t->opt->steps, &loss);
        if (st == TSR_OK)
            st = digits_evaluate(model_forward, &t->m, t->x_test, t->y_test, t->ntest, accuracy);
        if (st != TSR_OK)
            break;
        epoch++;
        if (!by_steps)
            printf("epoch %2d  loss %.4f  held-out accuracy %6.2f %%  time %6.2f s\n", epoch, loss,
                   100 * *accuracy, seconds_since(&t0));
        fflush(stdout);
    }
    if (st == TSR_OK && t->opt->steps > 0)
        printf("%ld steps (%d epochs begun)  held-out accuracy %.2f %%  time %.2f s\n",
               t->steps_done, epoch, 100 * *accuracy, seconds_since(&t0));
    return st;
}

/* Splits the rows 80/20 with a seeded shuffle and builds everything train() needs. */
static tsr_status trainer_init(trainer *t, const options *o, const digits_dataset *d)
{
    memset(t, 0, sizeof *t);
    t->opt = o;
    t->data = d;
    tsr_status st = tsr_generator_create(o->seed, &t->gen);
    int *all = malloc((size_t)d->n * sizeof *all);
    t->order = malloc((size_t)d->n * sizeof *t->order);
    t->xbuf = malloc((size_t)(d->n > o->batch ? d->n : o->batch) * PIXELS * sizeof *t->xbuf);
    t->ybuf = malloc((size_t)(d->n > o->batch ? d->n : o->batch) * sizeof *t->ybuf);
    t->y_test = malloc((size_t)d->n * sizeof *t->y_test);
    if (st == TSR_OK && (!all || !t->order || !t->xbuf || !t->ybuf || !t->y_test))
        st = TSR_ERR_OUT_OF_MEMORY;
    if (st == TSR_OK)
        st = digits_permutation(t->gen, d->n, all);
    t->ntest = d->n / 5;
    t->ntrain = d->n - t->ntest;
    tsr_tensor *y = NULL;
    if (st == TSR_OK)
        st = digits_gather(d, all + t->ntrain, t->ntest, t->xbuf, t->y_test, &t->x_test, &y);
    tsr_tensor_release(y);
    t->train_idx = all;
    if (st == TSR_OK)
        st = model_create(o->hidden, t->gen, &t->m);
    tsr_adam_options adam = tsr_adam_options_default();
    adam.lr = o->lr;
    if (st == TSR_OK)
        st = tsr_optimizer_create_adam(t->m.params, 4, &adam, &t->optimizer);
    return st;
}

static void trainer_free(trainer *t)
{
    tsr_optimizer_destroy(t->optimizer);
    model_release(&t->m);
    tsr_tensor_release(t->x_test);
    tsr_generator_destroy(t->gen);
    free(t->train_idx);
    free(t->order);
    free(t->xbuf);
    free(t->ybuf);
    free(t->y_test);
}

/* ======================================================================== */
/* Command line                                                              */
/* ======================================================================== */

static void usage(FILE *f)
{
    fputs("usage: train_digits [--epochs N] [--steps N] [--expect-accuracy F] [--lr F]\n"
          "                    [--hidden N] [--batch N] [--seed N] [--data PATH] [--save DIR]\n"
          "                    [--version] [--help]\n"
          "Trains an MLP on the UCI digits on the default backend (TESSERA_BACKEND).\n"
          "  --epochs N           passes over the training set (default 15)\n"
          "  --steps N            run N steps instead, printing RSS every 100\n"
          "  --expect-accuracy F  exit 1 when the held-out accuracy ends below F\n"
          "  --lr F               Adam's learning rate (default 0.01)\n"
          "  --hidden N           hidden units (default 128)\n"
          "  --batch N            batch size (default 64)\n"
          "  --seed N             the split's and the initialisation's seed (default 0)\n"
          "  --data PATH          the digits, a .csv.gz (default: the installed or source copy)\n"
          "  --save DIR           save the parameters and Adam's state to DIR\n"
          "  --version            print the tessera version and the plugin ABI, and exit\n"
          "  --help               this text\n",
          f);
}

static bool parse_args(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!v)
            return false;
        if (strcmp(a, "--data") == 0)
            o->data = v;
        else if (strcmp(a, "--epochs") == 0)
            o->epochs = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--steps") == 0)
            o->steps = strtol(v, &end, 10);
        else if (strcmp(a, "--hidden") == 0)
            o->hidden = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--batch") == 0)
            o->batch = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--lr") == 0)
            o->lr = strtod(v, &end);
        else if (strcmp(a, "--expect-accuracy") == 0)
            o->expect_accuracy = strtod(v, &end);
        else if (strcmp(a, "--seed") == 0)
            o->seed = strtoull(v, &end, 10);
        else if (strcmp(a, "--save") == 0)
            o->save = v;
        else
            return false;
        if (end && *end)
            return false;
        i++;
    }
    return o->epochs >= 0 && o->steps >= 0 && o->hidden > 0 && o->batch > 0 && o->lr >= 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0)
        return usage(stdout), 0;
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        uint32_t abi;
        const char *version = tsr_version(&abi);
        printf("train_digits (tessera %s, plugin ABI %u.%u)\n", version, abi >> 16, abi & 0xffff);
        return 0;
    }
    char data[4096];
    options o = {
        digits_default_path(TRAIN_DIGITS_INSTALLED_DATA, TRAIN_DIGITS_DATA, data, sizeof data),
        15,
        0,
        128,
        64,
        1e-2,
        -1,
        0,
        NULL};
    if (!parse_args(argc, argv, &o))
        return usage(stderr), 2;
    tsr_backend *backend;
    if (tsr_backend_get(NULL, &backend) != TSR_OK) {
        fprintf(stderr, "train_digits: %s\n", tsr_last_error());
        return 1;
    }
    digits_dataset d = {0};
    if (digits_load("train_digits", o.data, &d) != 0) {
        digits_free(&d);
        return 1;
    }
    trainer t;
    tsr_status st = trainer_init(&t, &o, &d);
    printf("backend: %s\n", tsr_backend_name(backend));
    printf("data: %s: %d images, %d for training, %d held out (seed %llu)\n", o.data, d.n, t.ntrain,
           t.ntest, o.seed);
    printf("model: %d -> %d -> ReLU -> %d, cross_entropy, Adam lr %g, batches of %d\n", PIXELS,
           o.hidden, CLASSES, o.lr, o.batch);
    fflush(stdout);
    double accuracy = 0;
    if (st == TSR_OK)
        st = train(&t, &accuracy);
    if (st == TSR_OK && o.save) {
        st = tsr_state_save(o.save, (const tsr_tensor *const *)t.m.params, param_names, 4,
                            t.optimizer);
        if (st == TSR_OK)
            printf("saved the parameters and Adam's state to %s/\n", o.save);
    }
    int rc = 0;
    if (st != TSR_OK) {
        fprintf(stderr, "train_digits: %s (%s)\n", tsr_last_error(), tsr_status_name(st));
        rc = 1;
    } else if (o.expect_accuracy >= 0 && accuracy < o.expect_accuracy) {
        fprintf(stderr, "train_digits: held-out accuracy %.4f is below the expected %.4f\n",
                accuracy, o.expect_accuracy);
        rc = 1;
    }
    trainer_free(&t);
    digits_free(&d);
    return rc;
}
