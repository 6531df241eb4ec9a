"""RecordIO files (MXNet's .rec format) and the IRHeader record packing used by image data.

    w = MXRecordIO('f.rec', 'w'); w.write(b'abc'); w.close()
    r = MXRecordIO('f.rec', 'r'); r.read()  # b'abc'; None at the end

MXIndexedRecordIO adds an .idx text file of "key<TAB>offset" lines for random access.
"""
import ctypes
import numbers
import os
import struct
from collections import namedtuple

import numpy as np

from .base import _LIB, RecordIOHandle, check_call, c_str
# Names MXNet 1.9.1's module also exposes (it imports them).
from multiprocessing import current_process  # noqa: F401
try:  # OpenCV is optional (None when missing)
    import cv2  # noqa: F401
except ImportError:
    cv2 = None

__all__ = ["MXRecordIO", "MXIndexedRecordIO", "IRHeader", "pack", "unpack", "pack_img",
           "unpack_img"]


class MXRecordIO(object):
    """Sequential reader ('r') or writer ('w') of a RecordIO file."""

    def __init__(self, uri, flag):
        self.uri = c_str(str(uri))
        self.handle = RecordIOHandle()
        self.flag = flag
        self.pid = None
        self.is_open = False
        self.open()

    def open(self):
        """Open the file (called by the constructor and by reset)."""
        if self.flag == "w":
            check_call(_LIB.MXRecordIOWriterCreate(self.uri, ctypes.byref(self.handle)))
            self.writable = True
        elif self.flag == "r":
            check_call(_LIB.MXRecordIOReaderCreate(self.uri, ctypes.byref(self.handle)))
            self.writable = False
        else:
            raise ValueError("Invalid flag %s" % self.flag)
        self.pid = os.getpid()
        self.is_open = True

    def __del__(self):
        try:
            self.close()
        except Exception:  # pylint: disable=broad-except  (interpreter shutdown)
            pass

    def __getstate__(self):
        """Pickle support: the handle is not picklable, the file is reopened on load."""
        is_open = self.is_open
        self.close()
        d = dict(self.__dict__)
        d['is_open'] = is_open
        uri = self.uri.value
        try:
            uri = uri.decode('utf-8')
        except AttributeError:
            pass
        del d['handle']
        d['uri'] = uri
        return d

    def __setstate__(self, d):
        self.__dict__ = d
        is_open = d['is_open']
        self.is_open = False
        self.handle = RecordIOHandle()
        self.uri = c_str(self.uri)
        if is_open:
            self.open()

    def _check_pid(self, allow_reset=False):
        """Reopen in a forked child (a handle must not be shared across processes)."""
        if not self.pid == os.getpid():
            if allow_reset:
                self.reset()
            else:
                raise RuntimeError("Forbidden operation in multiple processes")

    def close(self):
        """Close the file (safe to call twice)."""
        if not getattr(self, 'is_open', False):
            return
        if self.writable:
            check_call(_LIB.MXRecordIOWriterFree(self.handle))
        else:
            check_call(_LIB.MXRecordIOReaderFree(self.handle))
        self.is_open = False
        self.pid = None

    def reset(self):
        """Close and reopen: a reader starts from the beginning, a writer truncates the file."""
        self.close()
        self.open()

    def write(self, buf):
        """Append one record (bytes)."""
        if not self.writable:
            raise ValueError("MXRecordIO: cannot write to a file opened for reading")
        self._check_pid(allow_reset=False)
        if isinstance(buf, str):
            buf = buf.encode('utf-8')
        buf = bytes(buf)
        check_call(_LIB.MXRecordIOWriterWriteRecord(self.handle, ctypes.c_char_p(buf),
                                                    ctypes.c_size_t(len(buf))))

    def read(self):
        """The next record as bytes, or None at the end of the file."""
        if self.writable:
            raise ValueError("MXRecordIO: cannot read from a file opened for writing")
        self._check_pid(allow_reset=True)
        buf = ctypes.c_char_p()
        size = ctypes.c_size_t()
        check_call(_LIB.MXRecordIOReaderReadRecord(self.handle, ctypes.byref(buf),
                                                   ctypes.byref(size)))
        if buf:
            buf = ctypes.cast(buf, ctypes.POINTER(ctypes.c_char * size.value))
            return buf.contents.raw
        return None


class MXIndexedRecordIO(MXRecordIO):
    """RecordIO with an index file for random access by key (key_type converts the keys read
    from the index file)."""

    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path = idx_path
        self.idx = {}
        self.keys = []
        self.key_type = key_type
        self.fidx = None
        super(MXIndexedRecordIO, self).__init__(uri, flag)

    def open(self):
        super(MXIndexedRecordIO, self).open()
        self.idx = {}
        self.keys = []
        self.fidx = open(self.idx_path, self.flag)
        if not self.writable:
            for number, text in enumerate(iter(self.fidx.readline, ''), 1):
                if not text.strip():
                    continue  # blank lines (a trailing newline) carry nothing
                line = text.strip().split('\t')
                try:
                    if len(line) != 2:
                        raise ValueError("expected 'key<TAB>offset'")
                    key = self.key_type(line[0])
                    offset = int(line[1])
                    if offset < 0:
                        raise ValueError("negative offset")
                except ValueError as err:
                    self.fidx.close()
                    raise ValueError("MXIndexedRecordIO: %s line %d is malformed (%s): %r"
                                     % (self.idx_path, number, err, text.rstrip('\n')))
                self.idx[key] = offset
                self.keys.append(key)

    def close(self):
        if not getattr(self, 'is_open', False):
            return
        super(MXIndexedRecordIO, self).close()
        self.fidx.close()

    def __getstate__(self):
        d = super(MXIndexedRecordIO, self).__getstate__()
        d['fidx'] = None
        return d

    def seek(self, idx):
        """Move the reader to the record with key `idx`."""
        if self.writable:
            raise ValueError("MXIndexedRecordIO: cannot seek in a file opened for writing")
        self._check_pid(allow_reset=True)
        if idx not in self.idx:
            raise KeyError("MXIndexedRecordIO: key %r is not in the index %s"
                           % (idx, self.idx_path))
        pos = ctypes.c_size_t(self.idx[idx])
        check_call(_LIB.MXRecordIOReaderSeek(self.handle, pos))

    def tell(self):
        """The writer's current offset (where the next record starts)."""
        if not self.writable:
            raise ValueError("MXIndexedRecordIO: tell is for files opened for writing")
        pos = ctypes.c_size_t()
        check_call(_LIB.MXRecordIOWriterTell(self.handle, ctypes.byref(pos)))
        return pos.value

    def read_idx(self, idx):
        """The record with key `idx`."""
        self.seek(idx)
        return self.read()

    def write_idx(self, idx, buf):
        """Append a record under key `idx` (written to the index file too)."""
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self.fidx.write('%s\t%d\n' % (str(key), pos))
        self.idx[key] = pos
        self.keys.append(key)


IRHeader = namedtuple('HEADER', ['flag', 'label', 'id', 'id2'])
"""Header of an image record: flag (0, or the number of float labels), label (float or array),
id, id2."""

_IR_FORMAT = 'IfQQ'
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def pack(header, s):
    """Pack an IRHeader and payload bytes into a record. A non-scalar label is stored as
    `flag` float32 values after the header."""
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label, dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + s
    s = struct.pack(_IR_FORMAT, *header) + s
    return s


def unpack(s):
    """Split a record into (IRHeader, payload bytes)."""
    if len(s) < _IR_SIZE:
        raise ValueError("recordio.unpack: record of %d bytes is shorter than the %d-byte IRHeader"
                         % (len(s), _IR_SIZE))
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        if len(s) < header.flag * 4:
            raise ValueError("recordio.unpack: header says %d float labels but only %d bytes follow"
                             % (header.flag, len(s)))
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4:]
    return header, s


def _decode_bytes(buf, flag, to_rgb):
    """JPEG/PNG bytes -> (H, W, C) uint8 NumPy array through libmxnet's codec."""
    buf = bytes(buf)
    pixels = ctypes.POINTER(ctypes.c_ubyte)()
    h, w, c = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    check_call(_LIB.MXImageDecode(ctypes.c_char_p(buf), ctypes.c_size_t(len(buf)),
                                  ctypes.c_int(flag), ctypes.c_int(int(to_rgb)),
                                  ctypes.byref(pixels), ctypes.byref(h), ctypes.byref(w),
                                  ctypes.byref(c)))
    shape = (h.value, w.value, c.value)
    n = h.value * w.value * c.value
    return np.ctypeslib.as_array(pixels, shape=(n,)).copy().reshape(shape)


def _encode_image(img, img_fmt, quality, is_rgb):
    """(H, W[, C]) uint8 image -> encoded bytes (.jpg quality 1-100, .png compression 0-9)."""
    img = np.asarray(img)
    if img.dtype != np.uint8:
        raise TypeError("pack_img: the image must be uint8, got %s" % img.dtype)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("pack_img: the image must have shape (height, width[, channels]), got %s"
                         % (img.shape,))
    img = np.ascontiguousarray(img)
    h, w, c = img.shape
    out = ctypes.c_char_p()
    size = ctypes.c_size_t()
    check_call(_LIB.MXImageEncode(img.ctypes.data_as(ctypes.c_void_p), ctypes.c_int(h),
                                  ctypes.c_int(w), ctypes.c_int(c), ctypes.c_int(int(is_rgb)),
                                  c_str(img_fmt), ctypes.c_int(int(quality)), ctypes.byref(out),
                                  ctypes.byref(size)))
    return ctypes.string_at(out, size.value)


def unpack_img(s, iscolor=-1):
    """Unpack a record into (IRHeader, image as a NumPy array), decoded like cv2.imdecode.

    iscolor: -1 as stored (grey or colour), 0 grey, 1 colour. Colour images are BGR (OpenCV's
    order) and grey ones 2-D (height, width), as cv2.imdecode returns them. JPEG and PNG only.
    """
    header, s = unpack(s)
    img = _decode_bytes(s, iscolor, to_rgb=False)
    if img.shape[2] == 1:
        img = img[:, :, 0]
    return header, img


def pack_img(header, img, quality=95, img_fmt='.jpg'):
    """Encode `img` (BGR like OpenCV, or 2-D grey) as JPEG (`quality` 1-100) or PNG (`quality`
    is the compression level, clamped to 0-9) and pack it with `header`."""
    if img_fmt.upper() not in ('.JPG', '.JPEG', '.PNG'):
        raise ValueError("pack_img: img_fmt must be '.jpg', '.jpeg' or '.png', got %r" % (img_fmt,))
    return pack(header, _encode_image(img, img_fmt, quality, is_rgb=False))
