"""Op table: the interleaved multi-head attention products (src/operator/contrib/
interleaved_matmul.cc). References in NumPy from the layout: the last dimension of the
interleaved inputs is (heads, parts, head_dim), the attention maps are (batch * heads, Lq, Lk)."""
import numpy as np

from . import FLOATS, OpEntry, Sample


def split_heads(x, heads, parts):
    """(L, B, heads*parts*D) -> (L, B, heads, parts, D)."""
    length, batch, width = x.shape
    return x.reshape(length, batch, heads, parts, width // (heads * parts))


def scores(q, k):
    """q (Lq, B, H, D), k (Lk, B, H, D) -> (B*H, Lq, Lk), scaled by 1/sqrt(D)."""
    out = np.einsum("ibhd,jbhd->bhij", q.astype(np.float64), k.astype(np.float64))
    out /= np.sqrt(q.shape[-1])
    return out.reshape(q.shape[1] * q.shape[2], q.shape[0], k.shape[0]).astype(q.dtype)


def apply_attention(v, att, heads):
    """v (Lk, B, H, D), att (B*H, Lq, Lk) -> (Lq, B, H*D)."""
    lk, batch, _, dim = v.shape
    a = att.reshape(batch, heads, -1, lk).astype(np.float64)
    out = np.einsum("bhij,jbhd->ibhd", a, v.astype(np.float64))
    return out.reshape(out.shape[0], batch, heads * dim).astype(v.dtype)


def selfatt_qk_ref(qkv, heads):
    x = split_heads(qkv, heads, 3)
    return scores(x[:, :, :, 0], x[:, :, :, 1])


def selfatt_valatt_ref(qkv, att, heads):
    return apply_attention(split_heads(qkv, heads, 3)[:, :, :, 2], att, heads)


def encdec_qk_ref(q, kv, heads):
    return scores(split_heads(q, heads, 1)[:, :, :, 0], split_heads(kv, heads, 2)[:, :, :, 0])


def encdec_valatt_ref(kv, att, heads):
    return apply_attention(split_heads(kv, heads, 2)[:, :, :, 1], att, heads)


ENTRIES = [
    OpEntry("contrib.interleaved_matmul_selfatt_qk", ref=selfatt_qk_ref, dtypes=FLOATS,
            samples=[Sample([(4, 2, 12)], dict(heads=2)), Sample([(3, 1, 6)], dict(heads=1)),
                     Sample([(0, 2, 12)], dict(heads=2))],
            covers=["_contrib_interleaved_matmul_selfatt_qk",
                    "_backward_interleaved_matmul_selfatt_qk"]),
    OpEntry("contrib.interleaved_matmul_selfatt_valatt", ref=selfatt_valatt_ref, dtypes=FLOATS,
            samples=[Sample([(4, 2, 12), (4, 4, 4)], dict(heads=2)),
                     Sample([(3, 1, 9), (3, 3, 3)], dict(heads=3))],
            covers=["_contrib_interleaved_matmul_selfatt_valatt",
                    "_backward_interleaved_matmul_selfatt_valatt"]),
    OpEntry("contrib.interleaved_matmul_encdec_qk", ref=encdec_qk_ref, dtypes=FLOATS,
            samples=[Sample([(3, 2, 4), (5, 2, 8)], dict(heads=2)),
                     Sample([(2, 1, 3), (4, 1, 6)], dict(heads=1))],
            covers=["_contrib_interleaved_matmul_encdec_qk",
                    "_backward_interleaved_matmul_encdec_qk"]),
    OpEntry("contrib.interleaved_matmul_encdec_valatt", ref=encdec_valatt_ref, dtypes=FLOATS,
            samples=[Sample([(5, 2, 8), (4, 3, 5)], dict(heads=2)),
                     Sample([(4, 1, 6), (1, 2, 4)], dict(heads=1))],
            covers=["_contrib_interleaved_matmul_encdec_valatt",
                    "_backward_interleaved_matmul_encdec_valatt"]),
]
