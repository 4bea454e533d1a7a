# Which output of tutorial 06's backward (D=128) differs, with TRITIUM=1 and TRITIUM=0.
import os, runpy, sys, torch
path = sys.argv[1]
scope = runpy.run_path(path, run_name="tutorial")
attention = scope["attention"]
for head_dim in (64, 128):
    for causal in (True, False):
        torch.manual_seed(20)
        Z, H, N = 1, 2, 1024
        mk = lambda: torch.empty((Z, H, N, head_dim), dtype=torch.float16, device="cuda").normal_(0.0, 0.5).requires_grad_()
        q, k, v = mk(), mk(), mk()
        sm = 0.5
        M = torch.tril(torch.ones((N, N), device="cuda"))
        p = torch.matmul(q, k.transpose(2, 3)) * sm
        if causal:
            p[:, :, M == 0] = float("-inf")
        p = torch.softmax(p.float(), dim=-1).half()
        ref = torch.matmul(p, v).half()
        dout = torch.randn_like(q)
        ref.backward(dout)
        refs = [v.grad.clone(), k.grad.clone(), q.grad.clone()]
        v.grad = k.grad = q.grad = None
        out = attention(q, k, v, causal, sm, False).half()
        out.backward(dout)
        tris = [v.grad.clone(), k.grad.clone(), q.grad.clone()]
        errs = [(t - r).abs().max().item() for t, r in zip(tris, refs)]
        print(f"TRITIUM={os.environ.get('TRITIUM')} D={head_dim} causal={causal} out {(out - ref).abs().max().item():.4f} "
              f"dv {errs[0]:.4f} dk {errs[1]:.4f} dq {errs[2]:.4f}", flush=True)
