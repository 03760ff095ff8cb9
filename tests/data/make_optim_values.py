#!/usr/bin/env python3
"""Writes tests/data/optim_values.json: what PyTorch 1.13's optimisers and
torch.nn.init compute, for tests/optim/test_optim.c.

Run with a Python that has torch 1.13 (on the build machines: /usr/bin/python3):
    /usr/bin/python3 tests/data/make_optim_values.py

Each optimiser case starts from fixed parameter values, sets .grad by hand
for three steps (so momentum buffers and moments see their update branch,
not only their first-step branch) and records the parameter after each step
and the state after the last, in float64 and float32."""
import json
import math
import os

import torch

torch.set_default_dtype(torch.float64)

PARAM = [[0.5, -1.25, 2.0], [0.0, 3.5, -0.75]]
GRADS = [
    [[0.1, -0.2, 0.3], [-0.4, 0.5, 0.0]],
    [[-0.3, 0.25, 0.125], [0.6, -0.05, 1.5]],
    [[0.2, 0.2, -0.7], [0.0, 0.35, -0.9]],
]

CASES = [
    ("sgd_plain", "sgd", dict(lr=0.1)),
    ("sgd_momentum_dampening_wd", "sgd", dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("sgd_nesterov_wd", "sgd", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("sgd_maximize_momentum", "sgd", dict(lr=0.1, momentum=0.5, maximize=True)),
    ("adam_default_lr", "adam", dict(lr=0.01)),
    ("adam_wd_amsgrad", "adam", dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True)),
    ("adamw_default", "adamw", dict(lr=0.01)),
    ("adamw_amsgrad_maximize", "adamw", dict(lr=0.05, weight_decay=0.2, amsgrad=True, maximize=True)),
]

STATE_KEYS = {"sgd": ["momentum_buffer"], "adam": ["exp_avg", "exp_avg_sq", "max_exp_avg_sq"],
              "adamw": ["exp_avg", "exp_avg_sq", "max_exp_avg_sq"]}
CLASSES = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}


def run_case(name, kind, options, dtype):
    p = torch.tensor(PARAM, dtype=dtype, requires_grad=True)
    opt = CLASSES[kind]([p], **options)
    after = []
    for g in GRADS:
        p.grad = torch.tensor(g, dtype=dtype)
        opt.step()
        after.append(p.detach().flatten().tolist())
    state = {}
    for key in STATE_KEYS[kind]:
        t = opt.state[p].get(key)
        if t is not None:
            state[key] = t.flatten().tolist()
    flat_options = {k: v for k, v in options.items() if k != "betas"}
    if "betas" in options:
        flat_options["beta1"], flat_options["beta2"] = options["betas"]
    return {
        "name": name,
        "optimizer": kind,
        "options": flat_options,
        "dtype": str(dtype).replace("torch.", ""),
        "shape": list(p.shape),
        "param": [x for row in PARAM for x in row],
        "grads": [[x for row in g for x in row] for g in GRADS],
        "params_after": after,
        "state": state,
        "step": len(GRADS),
    }


def captured_uniform_bounds(init, shape):
    """(low, high) that init passed to Tensor.uniform_ for a tensor of shape."""
    seen = []
    original = torch.Tensor.uniform_

    def spy(self, low=0.0, high=1.0, *args, **kwargs):
        seen.append((low, high))
        return original(self, low, high, *args, **kwargs)

    torch.Tensor.uniform_ = spy
    try:
        init(torch.empty(shape))
    finally:
        torch.Tensor.uniform_ = original
    assert len(seen) == 1, seen
    return seen[0]


def init_values():
    nonlinearities = {"linear": None, "sigmoid": None, "tanh": None, "relu": None,
                      "leaky_relu": None, "selu": None}
    gains = {k: torch.nn.init.calculate_gain(k) for k in nonlinearities}
    gains["leaky_relu_0.2"] = torch.nn.init.calculate_gain("leaky_relu", 0.2)
    fans = []
    for shape in ([3, 5], [4, 3, 2, 2], [7, 0], [2, 6, 5]):
        fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
        fans.append({"shape": shape, "fan_in": fan_in, "fan_out": fan_out})
    # kaiming_uniform_ and xavier_uniform_ bounds: the very arguments torch.nn.init
    # passes to Tensor.uniform_, captured by wrapping that method.
    kaiming = []
    for shape, a, mode, nl in (([128, 64], math.sqrt(5), "fan_in", "leaky_relu"),
                               ([10, 128], 0.0, "fan_in", "relu"),
                               ([16, 8, 3, 3], 0.1, "fan_out", "leaky_relu"),
                               ([5, 7], 0.0, "fan_out", "linear")):
        low, high = captured_uniform_bounds(
            lambda t: torch.nn.init.kaiming_uniform_(t, a=a, mode=mode, nonlinearity=nl), shape)
        assert low == -high
        kaiming.append({"shape": shape, "a": a, "mode": mode, "nonlinearity": nl, "bound": high})
    xavier = []
    for shape, gain in (([128, 64], 1.0), ([10, 20, 3], math.sqrt(2.0))):
        low, high = captured_uniform_bounds(lambda t: torch.nn.init.xavier_uniform_(t, gain=gain),
                                            shape)
        assert low == -high
        xavier.append({"shape": shape, "gain": gain, "bound": high})
    # nn.Linear's bounds: its weight through kaiming_uniform_(a=sqrt(5)) is
    # uniform on +-1/sqrt(in_features), as its bias.
    lin = torch.nn.Linear(64, 128)
    return {"gains": gains, "fans": fans, "kaiming": kaiming, "xavier": xavier,
            "linear_64_128": {"weight_bound": 1 / math.sqrt(64), "bias_bound": 1 / math.sqrt(64),
                              "weight_max_seen": lin.weight.abs().max().item(),
                              "bias_max_seen": lin.bias.abs().max().item()}}


def main():
    cases = []
    for dtype in (torch.float64, torch.float32):
        for name, kind, options in CASES:
            cases.append(run_case(name, kind, options, dtype))
    out = {"torch_version": torch.__version__, "optimizers": cases, "init": init_values()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "optim_values.json")
    # One optimizer case a line: small diffs when a value changes.
    with open(path, "w") as f:
        f.write('{"torch_version": %s,\n "optimizers": [\n' % json.dumps(out["torch_version"]))
        f.write(",\n".join("  " + json.dumps(c) for c in cases))
        f.write('\n ],\n "init": %s\n}\n' % json.dumps(out["init"]))
    print("wrote", path, "with", len(cases), "optimizer cases")


if __name__ == "__main__":
    main()
