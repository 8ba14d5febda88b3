# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""
RDMA FLUSH requests rxe's responder must refuse (issue 22), beside
rdma-core's own test_qpex flush tests: each answer is the completion
status the requester sees.  Copied into rdma-core's pyverbs test
directory and run as a module of it by tests/guest/datapath.sh when
PYVERBS_MODULES names it.  rdma-core 44 (bookworm) has no FLUSH verb:
there the tests skip, and tests/probes/flush_probe.c posts FLUSH itself.
"""
import errno
import unittest

import pyverbs.enums as e
from pyverbs.pyverbs_error import PyverbsRDMAError
from tests.base import RDMATestCase
from tests.utils import wc_status_to_str
import tests.utils as u
try:
    from tests.test_qpex import QpExRCFlush
except ImportError:
    # Every test_*.py of the directory is imported: an ImportError here
    # would fail all the modules run beside this one.
    QpExRCFlush = None


class FlushMrWithoutFlushRight(QpExRCFlush or object):
    """The server's MR allows remote writes, no flush."""
    def create_mr(self):
        self.mr = u.create_custom_mr(self, e.IBV_ACCESS_REMOTE_WRITE)


class FlushPersistentMr(QpExRCFlush or object):
    """An MR asking for persistence: rxe has no persistent memory."""
    def create_mr(self):
        self.mr = u.create_custom_mr(self, e.IBV_ACCESS_FLUSH_PERSISTENT |
                                     e.IBV_ACCESS_REMOTE_WRITE)


@unittest.skipIf(QpExRCFlush is None, 'this rdma-core has no FLUSH verb')
class OrdmaFlushTestCase(RDMATestCase):
    def flush_status(self):
        u.send(self.client, None, e.IBV_WR_FLUSH, new_send=True)
        return u._poll_cq(self.client.cq)[0].status

    def expect(self, status):
        got = self.flush_status()
        self.assertEqual(got, status, f'got {wc_status_to_str(got)}, '
                         f'expected {wc_status_to_str(status)}')

    def test_flush_range_and_mr_succeed(self):
        self.create_players(QpExRCFlush)
        self.expect(e.IBV_WC_SUCCESS)
        # the whole MR: the range in the request means nothing
        self.client.level = e.IBV_FLUSH_MR
        self.client.raddr = 0
        self.client.msg_size = 0x7ffffff0
        self.expect(e.IBV_WC_SUCCESS)

    def test_flush_longer_than_a_message(self):
        # past max_msg_sz (2^31): invalid, at either level, as in-tree
        self.create_players(QpExRCFlush)
        self.client.level = e.IBV_FLUSH_MR
        self.client.msg_size = 0xfffffff0
        self.expect(e.IBV_WC_REM_INV_REQ_ERR)

    def test_flush_bad_rkey(self):
        self.create_players(QpExRCFlush)
        self.client.rkey = (self.server.mr.rkey + 0x100) & 0xffffffff
        self.expect(e.IBV_WC_REM_ACCESS_ERR)

    def test_flush_range_past_mr(self):
        self.create_players(QpExRCFlush)
        self.client.raddr = self.server.mr.buf + self.server.msg_size - 1
        self.client.msg_size = 2
        self.expect(e.IBV_WC_REM_ACCESS_ERR)

    def test_flush_without_mr_flush_right(self):
        self.create_players(FlushMrWithoutFlushRight)
        self.expect(e.IBV_WC_REM_ACCESS_ERR)

    def test_flush_reserved_placement_type(self):
        # ours only: in-tree 6.12 rxe ignores reserved bits and succeeds
        self.create_players(QpExRCFlush)
        self.client.ptype = 0x4
        self.expect(e.IBV_WC_REM_INV_REQ_ERR)

    def test_persistent_mr_refused(self):
        with self.assertRaises(PyverbsRDMAError) as ctx:
            self.create_players(FlushPersistentMr)
        self.assertEqual(ctx.exception.error_code, errno.EINVAL)
