# PyTorch's own output on a real CUDA GPU, case by case, for tests/gpu/oracle.lua
# to match to the character. Run on a machine with a GPU:
#   python3 tests/gpu/oracle.py > tests/gpu/oracle_expected.txt
# Each case prints '## NAME' and then what PyTorch prints; an error prints as
# 'TypeName: message' (the first line), as gpulab's pcall message does.
import gc
import torch

cases = []
def case(fn):
    cases.append(fn)
    return fn

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        name = type(e).__name__
        if name == 'OutOfMemoryError':
            name = 'OutOfMemoryError'
        print(f'{name}: {str(e).splitlines()[0]}')

DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool']

@case
def print_dtypes():
    for name in DTYPES:
        dt = getattr(torch, name)
        print(torch.tensor([[1.5, -2.25, 0.0], [3.0, 100.125, -7.0]]).to(dt).cuda())

@case
def print_shapes():
    print(torch.tensor(3.5, device='cuda'))
    print(torch.zeros(0, device='cuda'))
    print(torch.zeros(2, 0, device='cuda'))
    print(torch.arange(2000, device='cuda', dtype=torch.float32))
    print(torch.ones(2, 3, requires_grad=True, device='cuda') * 2)
    print(torch.tensor([1e-5, 1e5], device='cuda'))
    print(torch.tensor([float('nan'), float('inf'), -1.0], device='cuda'))

@case
def devices():
    print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.current_device())
    print(torch.cuda.get_device_name(0))
    print(torch.cuda.get_device_properties(0))
    print(torch.cuda.get_device_capability(0))
    x = torch.ones(2, device='cuda')
    print(x.device, repr(x.device), x.is_cuda, x.get_device())

@case
def mixed_device_errors():
    a = torch.ones(2, 2, device='cuda')
    b = torch.ones(2, 2)
    err(lambda: a + b)
    err(lambda: b * a)
    err(lambda: torch.mm(a, b))
    err(lambda: torch.mm(b, a))
    err(lambda: a @ b)
    err(lambda: torch.cat([a, b]))
    err(lambda: torch.cat([b, a]))
    err(lambda: torch.index_select(b, 0, torch.tensor([0], device='cuda')))
    err(lambda: torch.index_select(a, 0, torch.tensor([0])))
    err(lambda: torch.where(a > 0, a, b))
    lin = torch.nn.Linear(2, 3).cuda()
    err(lambda: lin(b))
    lin2 = torch.nn.Linear(2, 3)
    err(lambda: lin2(a))

@case
def shape_and_device_errors():
    # Both wrong at once: which error does each op report first?
    a = torch.ones(3, 4, device='cuda')
    b = torch.ones(2, 3)
    err(lambda: a + b)
    err(lambda: b * a)
    err(lambda: a.add_(b))
    err(lambda: torch.where(torch.ones(2, dtype=torch.bool, device='cuda'), a, b))
    err(lambda: a.lerp(b, 0.5))
    err(lambda: torch.mm(a, b))
    err(lambda: torch.cat([a, b]))

@case
def out_of_memory():
    err(lambda: torch.empty(2 ** 45, dtype=torch.uint8, device='cuda'))

@case
def memory_counters():
    torch.cuda.empty_cache()
    print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
    x = torch.empty(1000, device='cuda')
    print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
    y = torch.empty(1 << 20, device='cuda')
    print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
    z = torch.empty(5 << 20, device='cuda')
    print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
    del x, y, z
    gc.collect()
    print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
    torch.cuda.empty_cache()
    print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
    print(torch.cuda.max_memory_allocated())

@case
def random_numbers():
    torch.cuda.manual_seed(0)
    print(torch.randn(8, device='cuda'))
    print(torch.rand(5, device='cuda'))
    print(torch.randint(0, 10, (7,), device='cuda'))
    print(torch.randn(3, device='cuda'))
    print(torch.randn(2, 3, device='cuda', dtype=torch.float64))
    print(torch.empty(6, device='cuda').normal_(2, 3))
    print(torch.empty(6, device='cuda').uniform_(-1, 1))
    torch.manual_seed(0)
    print(torch.randn(4, device='cuda'))
    print(torch.randn(4))


@case
def random_samplers():
    torch.cuda.manual_seed(1)
    print(torch.randperm(10, device='cuda'))
    print(torch.bernoulli(torch.full((8,), 0.5, device='cuda')))
    print(torch.nn.functional.dropout(torch.ones(8, device='cuda'), 0.5))


@case
def multinomial():
    print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7], device='cuda'), 4, replacement=True))

@case
def module_on_gpu():
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2).cuda()
    print(lin.weight)
    print(lin(torch.ones(1, 3, device='cuda')))
    print(next(lin.parameters()).device)

def pair(r):
    print(r[0])
    print(r[1])


@case
def ties():
    a = torch.tensor([[1., 5., 2., 5.], [4., 0., 3., 0.], [2., 2., 7., 1.]], device='cuda')
    pair(torch.topk(a, 2))
    v = torch.tensor([3., 1., 2., 1., 3., float('nan'), 2., 1.], device='cuda')
    pair(v.topk(2, largest=False))
    pair(torch.sort(torch.tensor([2, 1, 2, 1, 2], device='cuda')))


@case
def modes_and_kernel_names():
    v = torch.tensor([3., 1., 2., 1., 3., float('nan'), 2., 1.], device='cuda')
    pair(torch.mode(v))
    pair(torch.mode(v, 0))
    pair(torch.topk(torch.arange(70, device='cuda').remainder(7), 9, sorted=False))
    b = torch.tensor([True, False], device='cuda')
    err(lambda: torch.addcmul(b, b, b))


@case
def pooling():
    x = torch.arange(2 * 5 * 6, dtype=torch.float32, device='cuda').reshape(1, 2, 5, 6).sin()
    F = torch.nn.functional
    print(F.avg_pool2d(x, 2, ceil_mode=True))
    print(F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True))
    print(F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, divisor_override=2))
    print(F.max_pool2d(x, 2, stride=2, dilation=2, ceil_mode=True))


@case
def bernoulli_dropout():
    torch.cuda.manual_seed(2)
    print(torch.bernoulli(torch.full((10,), 0.5, device='cuda')))
    print(torch.empty(9, device='cuda').bernoulli_(0.3))
    print(torch.nn.functional.dropout(torch.ones(12, device='cuda'), 0.25))
    print(torch.nn.functional.dropout(torch.ones(3, 5, device='cuda'), 0.5))
    print(torch.randint(0, 1 << 30, (4,), device='cuda'))
    print(torch.randn(3, device='cuda', dtype=torch.float16))
    print(torch.rand(3, device='cuda', dtype=torch.bfloat16))
    print(torch.randn(1000, device='cuda').narrow(0, 997, 3))


@case
def batch_norm():
    x = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32, device='cuda').reshape(2, 3, 4, 4).sin()
    m = torch.nn.BatchNorm2d(3).cuda()
    xg = x.clone().requires_grad_()
    y = m(xg)
    print(y)
    y.backward(x.cos())
    print(xg.grad.select(0, 0).select(0, 1))
    print(m.weight.grad, m.bias.grad)
    print(m.running_mean, m.running_var)
    m.eval()
    with torch.no_grad():
        print(m(x).select(0, 1).select(0, 2))
    print(m(xg).grad_fn.name())
    m1 = torch.nn.BatchNorm1d(3).cuda()
    print(m1(x.reshape(8, 3, 4)).grad_fn.name(), m1(x.reshape(32, 3)).grad_fn.name())


@case
def batch_norm_paths():  # each way into cuDNN's batch norm (Note [cuDNN batch norm declines])
    x = torch.arange(4 * 3 * 5, dtype=torch.float32, device='cuda').reshape(4, 3, 5).cos()
    m = torch.nn.BatchNorm1d(3).cuda()
    m.bias.requires_grad_(False)  # the weight's gradient alone
    xg = x.clone().requires_grad_()
    y = m(xg)
    y.backward(x.sin(), retain_graph=True)
    print(xg.grad.select(0, 1), m.weight.grad)
    y.backward(x.sin())  # the kept graph a second time: the same gradients again
    print(xg.grad.select(0, 1), m.weight.grad)
    n = torch.nn.BatchNorm2d(3, track_running_stats=False).cuda()
    print(n(x.reshape(4, 3, 5, 1) * 3 + 1).select(0, 2).flatten(), n.running_mean)
    big = torch.nn.BatchNorm2d(3).cuda()
    xb = (x.reshape(4, 3, 5, 1) + 1e4).requires_grad_()
    yb = big(xb)
    yb.sum().backward()
    print(yb.select(0, 0).flatten(), big.running_mean, big.running_var)
    print(xb.grad.abs().max().item() < 1e-2)  # d sum(y) / dx is 0: noise alone, whose digits need not repeat

@case
def conv_type_errors():  # Note [Convolution type errors]: cuDNN's texts, and a CPU input's
    x = torch.ones(2, 3, 8, 8)
    err(lambda: torch.nn.Conv2d(3, 6, 3)(x.cuda()))
    err(lambda: torch.nn.Conv2d(3, 6, 3).cuda()(x))
    err(lambda: torch.nn.functional.conv2d(x.cuda(), torch.ones(6, 3, 3, 3).cuda(), torch.ones(6)))
    err(lambda: torch.nn.functional.conv2d(x.cuda().bfloat16(), torch.ones(6, 3, 3, 3).cuda()))
    err(lambda: torch.nn.functional.conv2d(x.cuda().double(), torch.ones(6, 3, 3, 3).cuda()))
    err(lambda: torch.nn.functional.conv2d(x.cuda().to(torch.uint8), torch.ones(6, 3, 3, 3).cuda(), torch.ones(6).cuda()))
    err(lambda: torch.nn.functional.conv2d(x.narrow(0, 0, 1).narrow(1, 0, 1), torch.ones(2, 1, 3, 3).cuda()))

for c in cases:
    print('## ' + c.__name__)
    c()
