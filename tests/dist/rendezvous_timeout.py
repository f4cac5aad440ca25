#!/usr/bin/env python3
# PyTorch's side of run.sh's rendezvous-timeout check: one rank of a world of
# two calls init_process_group('gloo', timeout=2 s) and nobody else comes.
# Prints the error as "Type: message" (gpulab prints "gpulab: Type: message").
# Needs torch; loopback only, ends within ~5 s:
#   python3 tests/dist/rendezvous_timeout.py env 0 29614
#   python3 tests/dist/rendezvous_timeout.py tcp 1 29615
# PyTorch 2.15.0 printed (rank 0 serves the store, so it waits for clients;
# rank 1 is a client that finds no server):
#   DistStoreError: Timed out after 3 seconds waiting for clients. 1/2 clients joined.
#   DistNetworkError: The client socket has timed out after 2000ms while trying to connect to (127.0.0.1, 29615).
# the same for env:// and tcp:// (both are a TCPStore). "3 seconds" for a 2 s
# timeout: TCPStore::waitForWorkers compares the whole seconds elapsed with
# the timeout, so it gives up at the first whole second past it.
import datetime
import os
import sys

import torch.distributed as dist

mode, rank, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
timeout = datetime.timedelta(seconds=2)
try:
    if mode == "tcp":
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=2,
                                timeout=timeout)
    else:
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=port, RANK=str(rank), WORLD_SIZE="2")
        dist.init_process_group("gloo", init_method="env://", timeout=timeout)
    print("no error")
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")
