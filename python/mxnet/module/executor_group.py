"""Executors of one symbol on several devices, each computing a slice of the batch.

`Module` binds through this group. Parameters (and their gradients and auxiliary states) are
allocated once per device and shared by every executor bound later on that device (after a
`reshape` to another batch shape), so switching shapes never copies weights. With a single
device the batch is not sliced: data arrays are copied straight into the executor's inputs.
"""
import logging
from collections import OrderedDict

import numpy as np

from .._enums import _STORAGE_TYPE_ID_TO_STR
from .. import ndarray as nd
from ..context import cpu


def _split_input_slice(batch_size, work_load_list):
    """Slices of the batch proportional to `work_load_list` (one per device)."""
    total_work_load = sum(work_load_list)
    batch_num_list = [round(work_load * batch_size / total_work_load)
                      for work_load in work_load_list]
    batch_num_sum = sum(batch_num_list)
    if batch_num_sum < batch_size:
        batch_num_list[-1] += batch_size - batch_num_sum
    slices = []
    end = 0
    for batch_num in batch_num_list:
        begin = int(min((end, batch_size)))
        end = int(min((begin + batch_num, batch_size)))
        if begin >= end:
            raise ValueError("Too many slices: batch size %d cannot be split over %d devices "
                             "with work loads %s" % (batch_size, len(work_load_list),
                                                     work_load_list))
        slices.append(slice(begin, end))
    return slices


def _slice_axis(arr, axis, islice):
    if axis == 0:
        return arr[islice.start:islice.stop]
    return nd.slice_axis(arr, axis=axis, begin=islice.start, end=islice.stop)


def _load_general(sources, targets, major_axis):
    """Copies every source array (whole, or its device slice) into the executors' inputs."""
    for d_src, d_targets, axis in zip(sources, targets, major_axis):
        if isinstance(d_src, (list, tuple)):      # pre-sliced per device
            for src, (_, dst) in zip(d_src, d_targets):
                src.copyto(dst)
            continue
        if not isinstance(d_src, nd.NDArray):
            d_src = nd.array(d_src)
        for slice_idx, d_dst in d_targets:
            if axis >= 0 and (slice_idx.start != 0 or d_src.shape[axis] != slice_idx.stop):
                _slice_axis(d_src, axis, slice_idx).copyto(d_dst)
            else:
                d_src.copyto(d_dst)


def _merge_multi_context(outputs, major_axis):
    """Concatenates per-device results along their batch axis."""
    rets = []
    for tensors, axis in zip(outputs, major_axis):
        if axis >= 0 and len(tensors) > 1:
            rets.append(nd.concat(*[t.as_in_context(tensors[0].context) for t in tensors],
                                  dim=axis))
        else:
            rets.append(tensors[0])
    return rets


def _batch_axis(layout):
    """Index of the batch axis 'N' in a layout string (0 when unknown; -1 if none)."""
    if layout is None:
        return 0
    return layout.find("N")


def _batch_axis_of(symbol, index):
    try:
        return _batch_axis(symbol[index].attr("__layout__"))
    except Exception:  # pylint: disable=broad-except
        return 0


class DataParallelExecutorGroup(object):
    """Binds `symbol` on every context of `contexts` and runs them as one.

    Attributes mirror MXNet's: `param_arrays`/`grad_arrays`/`aux_arrays` are lists (one per
    parameter) of lists (one array per device); `data_arrays`/`label_arrays` are lists of
    ``(slice, array)`` per device; `execs` are the current executors.
    """

    def __init__(self, symbol, contexts, workload, data_shapes, label_shapes, param_names,
                 for_training, inputs_need_grad, shared_group=None, logger=logging,
                 fixed_param_names=None, grad_req="write", state_names=None,
                 group2ctxs=None):
        self.param_names = param_names
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.symbol = symbol
        self.contexts = contexts
        self.workload = workload
        self.group2ctxs = group2ctxs
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.logger = logger
        self.fixed_param_names = list(fixed_param_names or [])
        self.state_names = list(state_names or [])
        self.output_names = symbol.list_outputs()
        self.output_layouts = [_batch_axis_of(symbol, i) for i in range(len(self.output_names))]
        self.data_names = [x[0] for x in data_shapes]
        self.label_names = [x[0] for x in (label_shapes or [])]
        self.grad_req = self._make_grad_req(grad_req)
        # Per device: name -> array for parameters, their gradients and auxiliary states.
        if shared_group is not None:
            self._shared = shared_group._shared
        else:
            self._shared = [{"arg": {}, "grad": {}, "aux": {}} for _ in contexts]
        self._exec_cache = [{} for _ in contexts]
        self.execs = []
        self.batch_size = None
        self.slices = None
        self.bind_exec(data_shapes, label_shapes)

    def _make_grad_req(self, grad_req):
        data_names = set(self.data_names)
        if not self.for_training:
            return {k: "null" for k in self.arg_names}
        if isinstance(grad_req, str):
            req = {}
            for k in self.arg_names:
                if k in self.param_names:
                    req[k] = "null" if k in self.fixed_param_names else grad_req
                elif k in data_names:
                    req[k] = grad_req if self.inputs_need_grad else "null"
                else:
                    req[k] = "null"
            return req
        if isinstance(grad_req, (list, tuple)):
            if len(grad_req) != len(self.arg_names):
                raise ValueError("grad_req list has %d entries for %d arguments"
                                 % (len(grad_req), len(self.arg_names)))
            return dict(zip(self.arg_names, grad_req))
        if isinstance(grad_req, dict):
            req = self._make_grad_req("write")
            req.update(grad_req)
            return req
        raise TypeError("grad_req must be str, list, tuple or dict, got %s" % type(grad_req))

    # ---- binding ------------------------------------------------------------------------
    def decide_slices(self, data_shapes):
        """Batch size and per-device slices from the data shapes (all must agree)."""
        batch_size = None
        self.data_layouts = []
        for desc in data_shapes:
            axis = _batch_axis(getattr(desc, "layout", None))
            self.data_layouts.append(axis)
            if axis == -1:
                continue
            size = desc[1][axis]
            if batch_size is None:
                batch_size = size
            elif size != batch_size:
                raise ValueError("all data must have the same batch size: batch_size = %d, "
                                 "but %s has shape %s" % (batch_size, desc[0], desc[1]))
        self.batch_size = batch_size
        if len(self.contexts) == 1:
            self.slices = [slice(0, batch_size)]
        else:
            self.slices = _split_input_slice(batch_size, self.workload)
        return self.data_layouts

    def _sliced_shape(self, shapes, i, major_axis):
        sliced = []
        for desc, axis in zip(shapes, major_axis):
            shape = list(desc[1])
            if axis >= 0:
                shape[axis] = self.slices[i].stop - self.slices[i].start
            dtype = getattr(desc, "dtype", np.float32)
            sliced.append((desc[0], tuple(shape), dtype))
        return sliced

    def _storage_types(self):
        """Storage types of the arguments (the variables' stype) and of their gradients (as
        simple_bind infers them: e.g. row_sparse for the weight of dot(csr, weight) and for an
        Embedding weight with sparse_grad=True)."""
        cached = getattr(self, "_stype_cache", None)
        if cached is not None:
            return cached
        attrs = self.symbol.attr_dict()
        arg_stypes = {n: _STORAGE_TYPE_ID_TO_STR.get(
            int(attrs.get(n, {}).get("__storage_type__", 0)), "default") for n in self.arg_names}
        graph = self.symbol.tojson(remove_amp_cast=False)
        if any(s != "default" for s in arg_stypes.values()) or "sparse_grad" in graph or \
                '"cast_storage"' in graph:
            grads = self.symbol._infer_grad_storage_type(
                {n: self.grad_req[n] for n in self.arg_names})
            grad_stypes = dict(zip(self.arg_names, grads))
        else:
            grad_stypes = {n: None for n in self.arg_names}
        self._stype_cache = (arg_stypes, grad_stypes)
        return self._stype_cache

    def _bind_ith_exec(self, i, input_descs):
        """Binds (or reuses) device i's executor for these input shapes."""
        key = tuple((name, shape, np.dtype(dtype).name) for name, shape, dtype in input_descs)
        cache = self._exec_cache[i]
        if key in cache:
            return cache[key]
        ctx = self.contexts[i]
        shapes = {name: shape for name, shape, _ in input_descs}
        types = {name: dtype for name, _, dtype in input_descs}
        arg_shapes, _, aux_shapes = self.symbol.infer_shape(**shapes)
        if arg_shapes is None:
            raise ValueError("Cannot bind: the shapes of the symbol's arguments could not be "
                             "inferred from %s" % shapes)
        arg_types, _, aux_types = self.symbol.infer_type(**types)
        if arg_types is None:
            arg_types = [np.float32] * len(self.arg_names)
            aux_types = [np.float32] * len(self.aux_names)
        shared = self._shared[i]
        arg_stypes, grad_stypes = self._storage_types()
        args, grads, req = [], {}, {}
        for name, shape, dtype in zip(self.arg_names, arg_shapes, arg_types):
            shape = tuple(shape)
            stype, gstype = arg_stypes[name], grad_stypes[name] or "default"
            if name in self.param_names:
                arr = shared["arg"].get(name)
                if arr is None:
                    arr = shared["arg"][name] = nd.zeros(shape, ctx, dtype=dtype, stype=stype)
                elif tuple(arr.shape) != shape:
                    raise ValueError("parameter %s has shape %s but the new input shapes "
                                     "need %s" % (name, arr.shape, shape))
                if self.grad_req[name] != "null":
                    grad = shared["grad"].get(name)
                    if grad is None:
                        grad = shared["grad"][name] = nd.zeros(shape, ctx, dtype=dtype,
                                                               stype=gstype)
                    grads[name] = grad
            else:
                arr = nd.zeros(shape, ctx, dtype=dtype, stype=stype)
                if self.grad_req[name] != "null":
                    grads[name] = nd.zeros(shape, ctx, dtype=dtype, stype=gstype)
            req[name] = self.grad_req[name]
            args.append(arr)
        aux = []
        for name, shape, dtype in zip(self.aux_names, aux_shapes, aux_types):
            arr = shared["aux"].get(name)
            if arr is None:
                arr = shared["aux"][name] = nd.zeros(tuple(shape), ctx, dtype=dtype)
            aux.append(arr)
        group2ctx = self.group2ctxs[i] if self.group2ctxs else None
        executor = self.symbol.bind(ctx, args, args_grad=grads or None, grad_req=req,
                                    aux_states=aux, group2ctx=group2ctx)
        cache[key] = (executor, dict(zip(self.arg_names, args)), grads)
        return cache[key]

    def bind_exec(self, data_shapes, label_shapes, shared_group=None, reshape=False):
        """Binds executors for new input shapes (reusing parameters and cached executors)."""
        # pylint: disable=unused-argument
        self.data_shapes = data_shapes
        self.label_shapes = label_shapes
        major_data = self.decide_slices(data_shapes)
        major_label = [_batch_axis(getattr(d, "layout", None))
                       for d in (label_shapes or [])]
        self.label_layouts = major_label
        bound = []
        for i in range(len(self.contexts)):
            descs = self._sliced_shape(data_shapes, i, major_data)
            if label_shapes:
                descs += self._sliced_shape(label_shapes, i, major_label)
            bound.append(self._bind_ith_exec(i, descs))
        self.execs = [b[0] for b in bound]
        self._exec_args = [b[1] for b in bound]
        self._exec_grads = [b[2] for b in bound]
        self._collect_arrays()

    def reshape(self, data_shapes, label_shapes):
        """Switches to executors for other input shapes; parameters are shared."""
        if data_shapes == self.data_shapes and label_shapes == self.label_shapes:
            return
        self.bind_exec(data_shapes, label_shapes, reshape=True)

    def _collect_arrays(self):
        execs = self.execs
        arg_dicts = self._exec_args
        grad_dicts = self._exec_grads
        self.data_arrays = [[(self.slices[i], arg_dicts[i][name]) for i in range(len(execs))]
                            for name in self.data_names]
        self.state_arrays = [[arg_dicts[i][name] for i in range(len(execs))]
                             for name in self.state_names]
        if self.label_shapes:
            self.label_arrays = [[(self.slices[i], arg_dicts[i][name])
                                  for i in range(len(execs))] for name in self.label_names]
        else:
            self.label_arrays = None
        self.param_arrays = [[self._shared[i]["arg"][name] for i in range(len(execs))]
                             for name in self.param_names]
        if self.for_training:
            self.grad_arrays = [[self._shared[i]["grad"].get(name) for i in range(len(execs))]
                                for name in self.param_names]
        else:
            self.grad_arrays = None
        if self.inputs_need_grad:
            self.input_grad_arrays = [[grad_dicts[i][name] for i in range(len(execs))]
                                      for name in self.data_names]
        else:
            self.input_grad_arrays = None
        self.aux_arrays = [[self._shared[i]["aux"][name] for i in range(len(execs))]
                           for name in self.aux_names]

    # ---- parameters -------------------------------------------------------------------
    def set_params(self, arg_params, aux_params, allow_extra=False):
        """Copies parameters (dicts name -> NDArray) into every device's arrays."""
        for name, arr in arg_params.items():
            if name in self.param_names:
                for dst in self.param_arrays[self.param_names.index(name)]:
                    _copy_cast(arr, dst)
            elif name in self.arg_names:
                for args in self._exec_args:
                    arr.copyto(args[name])
            elif not allow_extra:
                raise ValueError("Find name \"%s\" that is not in the arguments" % name)
        for name, arr in (aux_params or {}).items():
            if name in self.aux_names:
                for dst in self.aux_arrays[self.aux_names.index(name)]:
                    _copy_cast(arr, dst)
            elif not allow_extra:
                raise ValueError("Find name \"%s\" that is not in the auxiliary states" % name)

    def get_params(self, arg_params, aux_params):
        """Copies the device parameters (averaged over devices) into the given dicts."""
        for name, block in zip(self.param_names, self.param_arrays):
            _average_into(block, arg_params[name])
        for name, block in zip(self.aux_names, self.aux_arrays):
            _average_into(block, aux_params[name])

    # ---- computation --------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        """Loads the batch into the executors and runs forward."""
        _load_general(data_batch.data, self.data_arrays, self.data_layouts)
        if is_train is None:
            is_train = self.for_training
        if self.label_arrays is not None and data_batch.label:
            _load_general(data_batch.label, self.label_arrays, self.label_layouts)
        for execr in self.execs:
            execr.forward(is_train=is_train)

    def backward(self, out_grads=None):
        """Runs backward on every executor (out_grads sliced along the output batch axes)."""
        if not self.for_training:
            raise ValueError("re-bind with for_training=True to run backward")
        if out_grads is None:
            out_grads = []
        elif isinstance(out_grads, nd.NDArray):
            out_grads = [out_grads]
        for i, execr in enumerate(self.execs):
            if len(self.execs) == 1:
                execr.backward(out_grads=list(out_grads) or None)
                continue
            sliced = []
            for grad, axis in zip(out_grads, self.output_layouts):
                if axis >= 0:
                    part = _slice_axis(grad, axis, self.slices[i])
                    sliced.append(part.as_in_context(self.contexts[i]))
                else:
                    sliced.append(grad.copyto(self.contexts[i]))
            execr.backward(out_grads=sliced or None)

    def get_outputs(self, merge_multi_context=True, begin=0, end=None):
        """Outputs: per output a list over devices, or merged along the batch axis."""
        if end is None:
            end = len(self.output_names)
        outputs = [[execr.outputs[i] for execr in self.execs] for i in range(begin, end)]
        if merge_multi_context:
            outputs = _merge_multi_context(outputs, self.output_layouts[begin:end])
        return outputs

    def get_output_shapes(self):
        """``[(name, shape)]`` of the outputs for the whole batch."""
        shapes = []
        for name, out, axis in zip(self.output_names, self.execs[0].outputs,
                                   self.output_layouts):
            shape = list(out.shape)
            if axis >= 0 and self.batch_size is not None:
                shape[axis] = self.batch_size
            shapes.append((name, tuple(shape)))
        return shapes

    def get_states(self, merge_multi_context=True):
        if merge_multi_context:
            return _merge_multi_context(self.state_arrays, [0] * len(self.state_arrays))
        return self.state_arrays

    def set_states(self, states=None, value=None):
        if states is not None:
            if value is not None:
                raise ValueError("Only one of states & value can be specified.")
            _load_general(states, [list(zip(self.slices, s)) for s in self.state_arrays],
                          [0] * len(states))
        else:
            if value is None:
                raise ValueError("At least one of states & value must be specified.")
            for d_dst in self.state_arrays:
                for dst in d_dst:
                    dst[:] = value

    def get_input_grads(self, merge_multi_context=True):
        if not self.inputs_need_grad:
            raise ValueError("bind with inputs_need_grad=True to get input gradients")
        if merge_multi_context:
            return _merge_multi_context(self.input_grad_arrays, self.data_layouts)
        return self.input_grad_arrays

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Updates `eval_metric` with each device's outputs and its slice of the labels."""
        for current, (execr, islice) in enumerate(zip(self.execs, self.slices)):
            if pre_sliced:
                labels_slice = labels[current]
            elif len(self.execs) == 1:
                labels_slice = labels
            else:
                labels_slice = []
                for label, axis in zip(labels, self.label_layouts or [0] * len(labels)):
                    labels_slice.append(_slice_axis(label, axis, islice) if axis >= 0
                                        else label)
            labels_ = OrderedDict(zip(self.label_names, labels_slice))
            preds = OrderedDict(zip(self.output_names, execr.outputs))
            eval_metric.update_dict(labels_, preds)

    def install_monitor(self, mon):
        for execr in self.execs:
            mon.install(execr)


def _copy_cast(src, dst):
    if src is dst:
        return
    if not isinstance(src, nd.NDArray):
        dst[:] = src
    elif src.dtype != dst.dtype:
        src.astype(dst.dtype).copyto(dst)
    else:
        src.copyto(dst)


def _average_into(block, dst):
    if len(block) == 1:
        src = block[0]
    else:
        src = block[0].copyto(cpu())
        for other in block[1:]:
            src += other.copyto(cpu())
        src /= len(block)
    _copy_cast(src, dst)
