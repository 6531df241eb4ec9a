"""What the float16 and bfloat16 AMP lists share, as MXNet 1.9.1 has them (checked against it
by tests/python/unittest/test_compat_amp_legacy_191.py)."""
from ....base import list_op_names

LOSS_OUTPUT_FUNCTIONS = ['SoftmaxOutput', 'LinearRegressionOutput', 'LogisticRegressionOutput',
                         'MAERegressionOutput']

CONDITIONAL_FP32_FUNCS = [('Activation', 'act_type', ['softrelu']),
                          ('LeakyReLU', 'act_type', ['elu', 'selu'])]

_PDF = ['dirichlet', 'exponential', 'gamma', 'generalized_negative_binomial',
        'negative_binomial', 'normal', 'poisson', 'uniform']
_COMPARE = ['equal', 'not_equal', 'greater', 'greater_equal', 'lesser', 'lesser_equal',
            'logical_and', 'logical_or', 'logical_xor']

# Operators with several floating inputs that must share one type (both lists; the float16
# one adds a few, the bfloat16 one the MultiBox operators).
WIDEST_COMMON = (
    ['Correlation', 'ElementWiseSum', 'add_n', 'batch_dot', 'dot', 'stack', 'where',
     '_Div', '_Maximum', '_Minimum', '_Minus', '_Mod', '_Mul', '_Plus', '_div', '_maximum',
     '_minimum', '_minus', '_mod', '_mul', '_plus', '_sub', '_scatter_elemwise_div',
     '_Equal', '_Not_Equal', '_Greater', '_Greater_Equal', '_Lesser', '_Lesser_Equal',
     '_Logical_And', '_Logical_Or', '_Logical_Xor'] +
    ['_' + c for c in _COMPARE] + ['broadcast_' + c for c in _COMPARE] +
    ['broadcast_' + o for o in ('add', 'div', 'maximum', 'minimum', 'minus', 'mod', 'plus',
                                'sub')] +
    ['elemwise_' + o for o in ('add', 'div', 'mul', 'sub')] +
    ['_contrib_' + o for o in ('MultiProposal', 'PSROIPooling', 'Proposal', 'ROIAlign',
                               'box_iou', 'box_nms', 'box_non_maximum_suppression',
                               'dgl_adjacency', 'dgl_csr_neighbor_non_uniform_sample',
                               'dgl_csr_neighbor_uniform_sample', 'dgl_graph_compact',
                               'dgl_subgraph', 'edge_id')] +
    ['_random_pdf_' + p for p in _PDF] + ['random_pdf_' + p for p in _PDF] +
    ['_sparse_' + o for o in ('ElementWiseSum', 'add_n', 'broadcast_add', 'broadcast_div',
                              'broadcast_minus', 'broadcast_mul', 'broadcast_plus',
                              'broadcast_sub', 'dot', 'elemwise_add', 'elemwise_div',
                              'elemwise_mul', 'elemwise_sub', 'sum', 'where')])

# Operators 1.9.1 puts in no list (besides the NumPy-interface families): convert_symbol
# leaves them alone.
UNLISTED = {
    '_CachedOpThreadSafe', '_contrib_BatchNormWithReLU', '_contrib_ModulatedDeformableConvolution',
    '_contrib_RROIAlign', '_contrib_allclose', '_contrib_arange_like', '_contrib_box_decode',
    '_contrib_box_encode', '_contrib_calibrate_entropy', '_contrib_quantize_asym',
    '_contrib_quantized_batch_norm', '_contrib_quantized_elemwise_mul',
    '_contrib_quantized_embedding', '_contrib_quantized_rnn', '_contrib_round_ste',
    '_contrib_sign_ste', '_multi_adamw_update', '_multi_lamb_update', '_multi_mp_adamw_update',
    '_multi_mp_lamb_update', '_sg_mkldnn_selfatt_qk', '_sg_mkldnn_selfatt_valatt',
    '_sparse__contrib_round_ste', '_sparse__contrib_sign_ste', 'col2im', 'cumsum', 'im2col',
    'lamb_update_phase1', 'lamb_update_phase2', 'mp_lamb_update_phase1',
    'mp_lamb_update_phase2', 'mp_nag_mom_update', 'multi_lars', 'multi_sum_sq',
    'nag_mom_update', 'preloaded_multi_mp_sgd_mom_update', 'preloaded_multi_mp_sgd_update',
    'preloaded_multi_sgd_mom_update', 'preloaded_multi_sgd_update', 'reset_arrays'}


def present(names):
    """The names among `names` that this build registers."""
    known = set(list_op_names())
    return [n for n in names if n in known]


def the_rest(taken, unlisted=()):
    """This build's classic operators (not the NumPy-interface ones) in none of `taken`,
    UNLISTED or `unlisted`: the list 1.9.1 fills with every remaining operator (two backward
    operators included)."""
    skip = set(taken) | UNLISTED | set(unlisted) | {op for op, _, _ in CONDITIONAL_FP32_FUNCS}
    return sorted(n for n in list_op_names()
                  if n not in skip and not n.startswith(('_np_', '_npi_', '_npx_'))
                  and ('backward' not in n or n in ('_broadcast_backward',
                                                    '_split_v2_backward')))
