"""mx.np dtype and shape rules against the real MXNet 1.9.1 (where they differ from NumPy:
scalars keep the array dtype, integer true division gives float32, unary math keeps integer
dtypes, sum of bool gives int64, argmax gives int64, ...). Skips when the venv is missing."""
import json

import pytest

import mx191_oracle

pytestmark = pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)

# Each case: an expression over mx.np (as `np`), evaluated by both implementations.
_CASES = [
    "np.array([1, 2, 3])", "np.array(3)", "np.arange(5)", "np.arange(0, 1, 0.25)",
    "np.zeros((2, 0))", "np.ones((2,), dtype='int32') + np.ones(2)",
    "np.ones(2, dtype='int32') + np.ones(2, dtype='int64')",
    "np.ones(2, dtype='float16') + np.ones(2)", "np.ones(2, dtype='int32') / np.ones(2, dtype='int32')",
    "np.ones(2, dtype='int32') / 2", "np.ones(2, dtype='int32') + 1.5",
    "np.ones(2, dtype='int32') * 2", "np.ones(2, dtype='bool') + np.ones(2, dtype='int32')",
    "np.exp(np.ones(2, dtype='int32'))", "np.sqrt(np.ones(2, dtype='int64'))",
    "np.sum(np.ones(2, dtype='int32'))", "np.sum(np.ones(2, dtype='bool'))",
    "np.mean(np.ones(2, dtype='int32'))", "np.ones((2, 3)).sum()", "np.ones((2, 3)).sum(axis=0)",
    "np.argmax(np.ones((2, 3)), axis=1)", "np.argmax(np.ones((2, 3)))",
    "np.ones(2) == np.ones(2)", "np.ones(2) > 1", "np.dot(np.ones(3), np.ones(3))",
    "np.ones((2, 3))[0, 0]", "np.ones((2, 3))[:, 1]", "np.linspace(0, 1, 5)",
    "np.std(np.ones((2, 3)))", "np.cumsum(np.ones(3, dtype='int32'))",
    "np.random.uniform(size=(2,))", "np.random.normal(0, 1, (2,))",
    "np.random.randint(0, 5, (2,))", "np.floor(np.ones(2, dtype='int32'))",
    "np.where(np.ones(2) > 0, np.ones(2), np.zeros(2))", "np.full((2,), 3)",
    "np.ones_like(np.ones(2, dtype='int32'))", "np.clip(np.ones(2), 0, 0.5)",
    "np.matmul(np.ones((2, 3)), np.ones((3,)))",
    "np.tensordot(np.ones((2, 3)), np.ones((3, 4)), axes=1)", "np.sort(np.array([3, 1, 2]))",
    "np.argsort(np.array([3, 1, 2]))", "np.expand_dims(np.ones((2, 3)), 0)",
    "np.squeeze(np.ones((1, 3)))", "np.concatenate([np.ones((1, 2)), np.ones((2, 2))])",
    "np.stack([np.ones(2), np.ones(2)], axis=1)", "np.ones((2, 3)).T",
    "np.eye(3)", "np.ones((2, 3)).reshape(-1)", "np.ones((2, 3)).max(axis=1, keepdims=True)",
]

_SCRIPT = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import mxnet as mx
from mxnet import np, npx
npx.set_np()
out = []
for expr in json.loads(sys.argv[1]):
    try:
        r = eval(expr)
        out.append([type(r).__name__, str(r.dtype), list(r.shape)])
    except Exception as e:  # noqa
        out.append(["error", type(e).__name__, None])
print("RESULT" + json.dumps(out))
'''


def _run(ours, tmp_path):
    script = tmp_path / ("ours.py" if ours else "ref.py")
    script.write_text(_SCRIPT)
    text = mx191_oracle.run([script, json.dumps(_CASES)], ours=ours, output=True).decode()
    return json.loads(text[text.index("RESULT") + len("RESULT"):])


def test_dtypes_and_shapes_match_mxnet_191(tmp_path):
    mx191_oracle.check_reference()
    ref = _run(False, tmp_path)
    ours = _run(True, tmp_path)
    diffs = [(c, r, o) for c, r, o in zip(_CASES, ref, ours) if r != o]
    assert not diffs, "\n".join("%s: 1.9.1 %s, ours %s" % d for d in diffs)
