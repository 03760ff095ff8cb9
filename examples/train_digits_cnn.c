/* Trains a small convolutional network on the UCI handwritten digits
 * (examples/data/digits.csv.gz: 1797 images of 8x8 pixels) with tessera's
 * public API only:
 *
 *   [N, 1, 8, 8] -> conv2d 3x3 pad 1 -> ReLU                   [N, C1, 8, 8]
 *                -> conv2d 3x3 pad 1 -> ReLU -> max_pool2d 2   [N, C2, 4, 4]
 *                -> flatten -> linear                          [N, 10]
 *
 * (pooling once: on images this small, pooling after each convolution
 * leaves 2x2 pixels and loses about a point of held-out accuracy)
 *
 * with cross_entropy, backward and Adam (its learning rate decaying linearly
 * over the epochs), holding out a fifth of the images
 * (the same seeded split as train_digits).
 *
 *   train_digits_cnn                   10 epochs, loss and held-out accuracy per epoch
 *   train_digits_cnn --epochs 4 --expect-accuracy 0.97
 *
 * Runs on the default backend (TESSERA_BACKEND chooses another). Exit status:
 * 0 on success, 1 on an error or a final held-out accuracy below
 * --expect-accuracy (default 0.98), 2 on a usage error. */
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

enum { NPARAMS = 6 };

typedef struct options {
    const char *data;
    int epochs;
    int channels1, channels2;
    int batch;
    double lr;
    double expect_accuracy; /* < 0: no check */
    unsigned long long seed;
} options;

typedef struct model {
    /* conv1.weight, conv1.bias, conv2.weight, conv2.bias, fc.weight, fc.bias */
    tsr_tensor *params[NPARAMS];
} model;

/* ======================================================================== */
/* The model                                                                 */
/* ======================================================================== */

/* nn.Conv2d(cin, cout, 3): its weight and bias initialised as PyTorch's
 * reset_parameters does (the fans count the 3x3 receptive field). */
static tsr_status conv_params_create(int64_t cin, int64_t cout, tsr_generator *gen,
                                     tsr_tensor **weight, tsr_tensor **bias)
{
    int64_t wshape[4] = {cout, cin, 3, 3};
    tsr_status st = tsr_empty(4, wshape, TSR_FLOAT32, NULL, weight);
    if (st == TSR_OK)
        st = tsr_empty(1, &cout, TSR_FLOAT32, NULL, bias);
    if (st == TSR_OK)
        st = tsr_init_linear_(*weight, *bias, gen);
    if (st == TSR_OK)
        st = tsr_tensor_set_requires_grad(*weight, true);
    if (st == TSR_OK)
        st = tsr_tensor_set_requires_grad(*bias, true);
    return st;
}

static tsr_status model_create(const options *o, tsr_generator *gen, model *m)
{
    tsr_status st = conv_params_create(1, o->channels1, gen, &m->params[0], &m->params[1]);
    if (st == TSR_OK)
        st = conv_params_create(o->channels1, o->channels2, gen, &m->params[2], &m->params[3]);
    /* The pooling by 2 leaves 4x4 of the 8x8 pixels. */
    if (st == TSR_OK)
        st = tsr_linear_params_create((int64_t)o->channels2 * 16, DIGITS_CLASSES, TSR_FLOAT32, NULL,
                                      gen, &m->params[4], &m->params[5]);
    return st;
}

static void model_release(model *m)
{
    for (int i = 0; i < NPARAMS; i++)
        tsr_tensor_release(m->params[i]);
}

/* relu(conv2d(x, weight, bias, padding=1)), then max_pool2d(., 2) when pool */
static tsr_status conv_block(const tsr_tensor *x, const tsr_tensor *weight, const tsr_tensor *bias,
                             bool pool_it, tsr_tensor **out)
{
    static const int64_t pad = 1;
    tsr_conv_params conv = {.padding = &pad, .npadding = 1};
    tsr_pool_options pool = TSR_POOL_OPTIONS_INIT;
    pool.kernel_size[0] = 2;
    pool.kernel_count = 1;
    tsr_tensor *c = NULL, *a = NULL;
    tsr_status st = tsr_conv2d(x, weight, bias, &conv, &c);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_RELU, c, pool_it ? &a : out);
    if (st == TSR_OK && pool_it)
        st = tsr_max_pool2d(a, &pool, out, NULL);
    tsr_tensor_release(c);
    tsr_tensor_release(a);
    return st;
}

/* x: [N, 64] rows of pixels -> logits [N, 10] */
static tsr_status forward(const model *m, const tsr_tensor *x, tsr_tensor **logits)
{
    const int64_t image[4] = {-1, 1, DIGITS_SIDE, DIGITS_SIDE};
    tsr_tensor *img = NULL, *h1 = NULL, *h2 = NULL, *flat = NULL;
    tsr_status st = tsr_reshape(x, 4, image, &img);
    if (st == TSR_OK)
        st = conv_block(img, m->params[0], m->params[1], false, &h1);
    if (st == TSR_OK)
        st = conv_block(h1, m->params[2], m->params[3], true, &h2);
    if (st == TSR_OK)
        st = tsr_flatten(h2, 1, -1, &flat);
    if (st == TSR_OK)
        st = tsr_linear(flat, m->params[4], m->params[5], logits);
    tsr_tensor_release(img);
    tsr_tensor_release(h1);
    tsr_tensor_release(h2);
    tsr_tensor_release(flat);
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
    int *train_idx; /* all rows, shuffled: the first ntrain train, the rest are held out */
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
} trainer;

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* One pass over the shuffled training rows; the mean batch loss. */
static tsr_status run_epoch(trainer *t, double *mean_loss)
{
    tsr_status st = digits_permutation(t->gen, t->ntrain, t->order);
    for (int i = 0; st == TSR_OK && i < t->ntrain; i++)
        t->order[i] = t->train_idx[t->order[i]];
    double sum = 0;
    int batches = 0;
    for (int start = 0; st == TSR_OK && start < t->ntrain; start += t->opt->batch) {
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
    }
    *mean_loss = batches ? sum / batches : 0;
    return st;
}

static tsr_status train(trainer *t, double *accuracy)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tsr_status st = TSR_OK;
    for (int epoch = 1; st == TSR_OK && epoch <= t->opt->epochs; epoch++) {
        /* The learning rate decays linearly to a small fraction of its
         * start, so that the last epochs settle instead of hopping between
         * minima: the final accuracy is then the one the run converged to. */
        double loss, lr = t->opt->lr * (1.0 - (double)(epoch - 1) / t->opt->epochs);
        st = tsr_optimizer_set_lr(t->optimizer, lr);
        if (st == TSR_OK)
            st = run_epoch(t, &loss);
        if (st == TSR_OK)
            st = digits_evaluate(model_forward, &t->m, t->x_test, t->y_test, t->ntest, accuracy);
        if (st == TSR_OK)
            printf("epoch %2d  loss %.4f  held-out accuracy %6.2f %%  time %6.2f s\n", epoch, loss,
                   100 * *accuracy, seconds_since(&t0));
        fflush(stdout);
    }
    return st;
}

/* Splits the rows 80/20 with a seeded shuffle and builds everything train() needs. */
static tsr_status trainer_init(trainer *t, const options *o, const digits_dataset *d)
{
    memset(t, 0, sizeof *t);
    t->opt = o;
    t->data = d;
    tsr_status st = tsr_generator_create(o->seed, &t->gen);
    int rows = d->n > o->batch ? d->n : o->batch;
    t->train_idx = malloc((size_t)d->n * sizeof *t->train_idx);
    t->order = malloc((size_t)d->n * sizeof *t->order);
    t->xbuf = malloc((size_t)rows * DIGITS_PIXELS * sizeof *t->xbuf);
    t->ybuf = malloc((size_t)rows * sizeof *t->ybuf);
    t->y_test = malloc((size_t)d->n * sizeof *t->y_test);
    if (st == TSR_OK && (!t->train_idx || !t->order || !t->xbuf || !t->ybuf || !t->y_test))
        st = TSR_ERR_OUT_OF_MEMORY;
    if (st == TSR_OK)
        st = digits_permutation(t->gen, d->n, t->train_idx);
    t->ntest = d->n / 5;
    t->ntrain = d->n - t->ntest;
    if (st == TSR_OK)
        st = digits_gather(d, t->train_idx + t->ntrain, t->ntest, t->xbuf, t->y_test, &t->x_test,
                           NULL);
    if (st == TSR_OK)
        st = model_create(o, t->gen, &t->m);
    tsr_adam_options adam = tsr_adam_options_default();
    adam.lr = o->lr;
    if (st == TSR_OK)
        st = tsr_optimizer_create_adam(t->m.params, NPARAMS, &adam, &t->optimizer);
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
    fputs("usage: train_digits_cnn [--epochs N] [--expect-accuracy F] [--lr F] [--channels C1,C2]\n"
          "                        [--batch N] [--seed N] [--data PATH] [--help]\n"
          "Trains a CNN on the UCI digits on the default backend (TESSERA_BACKEND).\n"
          "  --epochs N           passes over the training set (default 10)\n"
          "  --expect-accuracy F  exit 1 when the held-out accuracy ends below F\n"
          "                       (default 0.98; a negative F checks nothing)\n"
          "  --lr F               Adam's learning rate (default 0.01)\n"
          "  --channels C1,C2     the two convolutions' output channels (default 16,32)\n"
          "  --batch N            batch size (default 32)\n"
          "  --seed N             the split's and the initialisation's seed (default 0)\n"
          "  --data PATH          the digits, a .csv.gz (default: the installed or source copy)\n"
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
        if (strcmp(a, "--data") == 0) {
            o->data = v;
        } else if (strcmp(a, "--epochs") == 0) {
            o->epochs = (int)strtol(v, &end, 10);
        } else if (strcmp(a, "--channels") == 0) {
            o->channels1 = (int)strtol(v, &end, 10);
            if (*end != ',')
                return false;
            o->channels2 = (int)strtol(end + 1, &end, 10);
        } else if (strcmp(a, "--batch") == 0) {
            o->batch = (int)strtol(v, &end, 10);
        } else if (strcmp(a, "--lr") == 0) {
            o->lr = strtod(v, &end);
        } else if (strcmp(a, "--expect-accuracy") == 0) {
            o->expect_accuracy = strtod(v, &end);
        } else if (strcmp(a, "--seed") == 0) {
            o->seed = strtoull(v, &end, 10);
        } else {
            return false;
        }
        if (end && *end)
            return false;
        i++;
    }
    return o->epochs >= 0 && o->channels1 > 0 && o->channels2 > 0 && o->batch > 0 && o->lr >= 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0)
        return usage(stdout), 0;
    char data[4096];
    options o = {
        .data =
            digits_default_path(TRAIN_DIGITS_INSTALLED_DATA, TRAIN_DIGITS_DATA, data, sizeof data),
        .epochs = 10,
        .channels1 = 16,
        .channels2 = 32,
        .batch = 32,
        .lr = 1e-2,
        .expect_accuracy = 0.98,
    };
    if (!parse_args(argc, argv, &o))
        return usage(stderr), 2;
    tsr_backend *backend;
    if (tsr_backend_get(NULL, &backend) != TSR_OK) {
        fprintf(stderr, "train_digits_cnn: %s\n", tsr_last_error());
        return 1;
    }
    digits_dataset d = {0};
    if (digits_load("train_digits_cnn", o.data, &d) != 0) {
        digits_free(&d);
        return 1;
    }
    trainer t;
    tsr_status st = trainer_init(&t, &o, &d);
    printf("backend: %s\n", tsr_backend_name(backend));
    printf("data: %s: %d images, %d for training, %d held out (seed %llu)\n", o.data, d.n, t.ntrain,
           t.ntest, o.seed);
    printf("model: conv 1->%d, ReLU; conv %d->%d, ReLU, max_pool 2; linear %d->%d; "
           "cross_entropy, Adam lr %g, batches of %d\n",
           o.channels1, o.channels1, o.channels2, o.channels2 * 16, DIGITS_CLASSES, o.lr, o.batch);
    fflush(stdout);
    double accuracy = 0;
    if (st == TSR_OK)
        st = train(&t, &accuracy);
    int rc = 0;
    if (st != TSR_OK) {
        fprintf(stderr, "train_digits_cnn: %s (%s)\n", tsr_last_error(), tsr_status_name(st));
        rc = 1;
    } else {
        printf("held-out accuracy %.2f %%\n", 100 * accuracy);
        if (o.expect_accuracy >= 0 && accuracy < o.expect_accuracy) {
            fprintf(stderr, "train_digits_cnn: held-out accuracy %.4f is below the expected %.4f\n",
                    accuracy, o.expect_accuracy);
            rc = 1;
        }
    }
    trainer_free(&t);
    digits_free(&d);
    return rc;
}
