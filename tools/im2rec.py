#!/usr/bin/env python3
"""im2rec: make an image list (.lst) from a folder, or pack the images of a list into a RecordIO
file (.rec + .idx) for ImageRecordIter / ImageIter, with MXNet 1.9.1's tools/im2rec.py options.

    python3 tools/im2rec.py --list --recursive data/train images/     # writes data/train.lst
    python3 tools/im2rec.py --resize 256 --quality 90 data/train images/   # .rec + .idx

List lines are ``index<TAB>label(s)<TAB>relative path``. Images are decoded and re-encoded with
libmxnet's JPEG/PNG codec (no OpenCV needed); --pass-through copies the file bytes unchanged.
"""
import argparse
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import mxnet as mx  # noqa: E402  (after the path set-up, for runs from a source checkout)
from mxnet import recordio  # noqa: E402


def list_image(root, recursive, exts):
    """Yields (index, relative path, label): labels number the folders when recursive."""
    i = 0
    if recursive:
        cat = {}
        for path, dirs, files in os.walk(root, followlinks=True):
            dirs.sort()
            files.sort()
            for fname in files:
                fpath = os.path.join(path, fname)
                suffix = os.path.splitext(fname)[1].lower()
                if os.path.isfile(fpath) and suffix in exts:
                    if path not in cat:
                        cat[path] = len(cat)
                    yield (i, os.path.relpath(fpath, root), cat[path])
                    i += 1
        for k, v in sorted(cat.items(), key=lambda x: x[1]):
            print(os.path.relpath(k, root), v)
    else:
        for fname in sorted(os.listdir(root)):
            fpath = os.path.join(root, fname)
            suffix = os.path.splitext(fname)[1].lower()
            if os.path.isfile(fpath) and suffix in exts:
                yield (i, os.path.relpath(fpath, root), 0)
                i += 1


def write_list(path_out, image_list):
    with open(path_out, 'w') as fout:
        for item in image_list:
            line = '%d\t' % item[0]
            for j in item[2:]:
                line += '%f\t' % j
            line += '%s\n' % item[1]
            fout.write(line)


def make_list(args):
    image_list = list(list_image(args.root, args.recursive, args.exts))
    if args.shuffle:
        random.seed(100)
        random.shuffle(image_list)
    n = len(image_list)
    chunk_size = (n + args.chunks - 1) // args.chunks
    for i in range(args.chunks):
        chunk = image_list[i * chunk_size:(i + 1) * chunk_size]
        str_chunk = '_%d' % i if args.chunks > 1 else ''
        sep = int(chunk_size * args.train_ratio)
        sep_test = int(chunk_size * args.test_ratio)
        if args.train_ratio == 1.0:
            write_list(args.prefix + str_chunk + '.lst', chunk)
        else:
            if args.test_ratio:
                write_list(args.prefix + str_chunk + '_test.lst', chunk[:sep_test])
            if args.train_ratio + args.test_ratio < 1.0:
                write_list(args.prefix + str_chunk + '_val.lst', chunk[sep_test + sep:])
            write_list(args.prefix + str_chunk + '_train.lst', chunk[sep_test:sep_test + sep])


def read_list(path_in):
    """Yields [index, path, label...] of each list line."""
    with open(path_in) as fin:
        for line in fin:
            line = [i.strip() for i in line.strip().split('\t')]
            if len(line) < 3:
                print('lst should have at least has three parts, but only has %s parts for %s'
                      % (len(line), line))
                continue
            try:
                yield [int(line[0])] + [line[-1]] + [float(i) for i in line[1:-1]]
            except ValueError as e:
                print('Parsing lst met error for %s, detail: %s' % (line, e))


def image_encode(args, item):
    """The packed record of list item [index, path, label...]."""
    fullpath = os.path.join(args.root, item[1])
    if len(item) > 3 and args.pack_label:
        header = recordio.IRHeader(0, item[2:], item[0], 0)
    else:
        header = recordio.IRHeader(0, item[2], item[0], 0)
    with open(fullpath, 'rb') as fin:
        data = fin.read()
    if args.pass_through:
        return recordio.pack(header, data)
    img = recordio._decode_bytes(data, args.color, to_rgb=False)  # BGR, like cv2.imread
    if args.center_crop:
        h, w = img.shape[:2]
        if h > w:
            margin = (h - w) // 2
            img = img[margin:margin + w]
        else:
            margin = (w - h) // 2
            img = img[:, margin:margin + h]
    if args.resize:
        h, w = img.shape[:2]
        if h > w:
            newsize = (args.resize, h * args.resize // w)
        else:
            newsize = (w * args.resize // h, args.resize)
        img = mx.image.imresize(mx.nd.array(np.ascontiguousarray(img), dtype='uint8'),
                                newsize[0], newsize[1], interp=1).asnumpy()
    return recordio.pack_img(header, img, quality=args.quality, img_fmt=args.encoding)


def make_rec(args, path_lst):
    prefix = os.path.splitext(path_lst)[0]
    record = recordio.MXIndexedRecordIO(prefix + '.idx', prefix + '.rec', 'w')
    count = 0
    for item in read_list(path_lst):
        try:
            record.write_idx(item[0], image_encode(args, item))
        except (IOError, mx.MXNetError) as e:
            print('imread error trying to load file: %s (%s)' % (item[1], e))
            continue
        count += 1
    record.close()
    print('%s: packed %d images' % (prefix + '.rec', count))


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description='Create an image list or make a record database by reading from an '
                    'image list')
    parser.add_argument('prefix', help='prefix of input/output lst and rec files.')
    parser.add_argument('root', help='path to folder containing images.')
    cgroup = parser.add_argument_group('Options for creating image lists')
    cgroup.add_argument('--list', action='store_true',
                        help='If this is set im2rec will create image list(s) by traversing '
                             'root folder and output to <prefix>.lst.')
    cgroup.add_argument('--exts', nargs='+', default=['.jpeg', '.jpg', '.png'],
                        help='list of acceptable image extensions.')
    cgroup.add_argument('--chunks', type=int, default=1, help='number of chunks.')
    cgroup.add_argument('--train-ratio', type=float, default=1.0,
                        help='Ratio of images to use for training.')
    cgroup.add_argument('--test-ratio', type=float, default=0,
                        help='Ratio of images to use for testing.')
    cgroup.add_argument('--recursive', action='store_true',
                        help='If true recursively walk through subdirs and assign an unique '
                             'label to images in each folder.')
    cgroup.add_argument('--no-shuffle', dest='shuffle', action='store_false',
                        help='If this is passed, im2rec will not randomize the image order in '
                             '<prefix>.lst')
    rgroup = parser.add_argument_group('Options for creating database')
    rgroup.add_argument('--pass-through', action='store_true',
                        help='whether to skip transformation and save image as is')
    rgroup.add_argument('--resize', type=int, default=0,
                        help='resize the shorter edge of image to the newsize, original images '
                             'will be packed by default.')
    rgroup.add_argument('--center-crop', action='store_true',
                        help='specify whether to crop the center image to make it rectangular.')
    rgroup.add_argument('--quality', type=int, default=95,
                        help='JPEG quality for encoding, 1-100; or PNG compression for '
                             'encoding, 1-9')
    rgroup.add_argument('--num-thread', type=int, default=1,
                        help='number of thread to use for encoding (images are encoded in '
                             'order by this implementation).')
    rgroup.add_argument('--color', type=int, default=1, choices=[-1, 0, 1],
                        help='specify the color mode of the loaded image. 1: colour, 0: '
                             'grayscale, -1: as stored (alpha is dropped)')
    rgroup.add_argument('--encoding', type=str, default='.jpg', choices=['.jpg', '.png'],
                        help='specify the encoding of the images.')
    rgroup.add_argument('--pack-label', action='store_true',
                        help='Whether to also pack multi dimensional label in the record file')
    args = parser.parse_args(argv)
    args.prefix = os.path.abspath(args.prefix)
    args.root = os.path.abspath(args.root)
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        make_list(args)
        return
    if os.path.isdir(args.prefix):
        working_dir = args.prefix
    else:
        working_dir = os.path.dirname(args.prefix)
    files = [os.path.join(working_dir, fname) for fname in sorted(os.listdir(working_dir))
             if os.path.isfile(os.path.join(working_dir, fname))]
    prefix_name = os.path.basename(args.prefix)
    found = False
    for fname in files:
        if fname.endswith('.lst') and os.path.basename(fname).startswith(prefix_name):
            found = True
            print('Creating .rec file from', fname, 'in', working_dir)
            make_rec(args, fname)
    if not found:
        print('Did not find and list file with prefix %s' % args.prefix)


if __name__ == '__main__':
    main()
