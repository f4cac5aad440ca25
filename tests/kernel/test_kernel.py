"""The gpulab Jupyter kernel against jupyter_kernel_test (PyPI) and jupyter_client.

usage: python3 test_kernel.py   (JUPYTER_PATH must hold the 'gpulab' kernelspec;
run.sh installs one for the gpulab under test)
"""
import base64
import json
import os
import re
import tempfile
import time
import unittest

import jupyter_kernel_test as jkt
import zmq
from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

ANSI = re.compile(r"\x1b\[[0-9;]*m")


class GpulabKernelTests(jkt.KernelTests):
    kernel_name = "gpulab"
    language_name = "lua"
    file_extension = ".lua"

    code_hello_world = 'print("hello, world")'
    code_stderr = 'io.stderr:write("to stderr\\n")'
    completion_samples = [
        {"text": "torch.zero", "matches": {"zero_", "zeros", "zeros_like"}},
        {"text": "y = 1\ntorch.ones(2):cums", "matches": {"cumsum"}},
    ]
    complete_code_samples = ["x = 1", "print(1)", "!echo hi", "%time x = 1", "for i = 1, 2 do end", "y = 2; y"]
    incomplete_code_samples = ["for i = 1, 2 do", "function f(x)", "t = {1,"]
    invalid_code_samples = ["x = = 1", "for for"]
    code_inspect_sample = "torch.zeros"
    code_display_data = [
        {"code": "display(torch.ones(2))", "mime": "text/plain"},
        {"code": "display(torch.ones(2, 2))", "mime": "text/html"},
    ]
    code_generate_error = "torch.ones(2) + torch.ones(3)"
    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "torch.arange(3)", "result": "tensor([0, 1, 2])"},
        {"code": "local y = 20\ny + 1", "result": "21"},
        {"code": "x = torch.ones(2, 2)\nx:sum()", "result": "tensor(4.)"},
        {"code": "net = nn.Linear(3, 1)\nnet:parameters()[1].device", "result": "device(type='cpu')"},
    ]

    @classmethod
    def setUpClass(cls):
        # as jkt.KernelTests starts it, with the kernel's own stderr (what it
        # writes outside a cell: xeus' log) kept in a file the tests read
        cls.kernel_stderr = tempfile.TemporaryFile(mode="w+b")
        cls.km, cls.kc = start_new_kernel(kernel_name=cls.kernel_name, stderr=cls.kernel_stderr)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.kernel_stderr.close()

    def kernel_log(self):
        self.kernel_stderr.seek(0)
        return self.kernel_stderr.read().decode("utf-8", "replace")

    def run_cell(self, code, timeout=30):
        time.sleep(0.2)
        self.flush_channels()  # status messages of requests made outside execute_helper
        reply, outputs = self.execute_helper(code=code, timeout=timeout)
        return reply["content"], outputs

    def test_error_has_pytorch_type_and_message(self):
        reply, outputs = self.run_cell("torch.ones(2) + torch.ones(3)")
        self.assertEqual(reply["status"], "error")
        self.assertEqual(reply["ename"], "RuntimeError")
        self.assertIn("The size of tensor a (2) must match the size of tensor b (3)", reply["evalue"])
        errors = [o for o in outputs if o["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        # the kernel carries on, with its variables
        self.run_cell("kept = 41")
        reply, outputs = self.run_cell("kept + 1")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "42")

    def test_syntax_and_lua_errors(self):
        reply, _ = self.run_cell("x = 1 +")
        self.assertEqual((reply["status"], reply["ename"]), ("error", "SyntaxError"))
        reply, _ = self.run_cell('error("boom")')
        self.assertEqual((reply["ename"], reply["evalue"]), ("Error", "In[%d]:1: boom" % reply["execution_count"]))

    def test_name_error_with_hint(self):
        reply, _ = self.run_cell("prnt(1)")
        self.assertEqual(reply["status"], "error")
        reply, _ = self.run_cell("undefined_name_here")
        self.assertEqual(reply["ename"], "NameError")

    def test_python_habit_gets_its_hint_in_the_traceback(self):
        # len is one of 06_repl_hints.lua's Python names: the REPL's hint line
        # is in the reply's traceback and in the error message the notebook shows
        hint = "hint: Lua writes #t for a table's length; for a tensor x:size(0), x.shape[0] or x:numel()"
        reply, outputs = self.run_cell("n = len({1, 2, 3})")
        self.assertEqual((reply["status"], reply["ename"]), ("error", "NameError"))
        self.assertIn(hint, [ANSI.sub("", line) for line in reply["traceback"]])
        errors = [o["content"] for o in outputs if o["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertIn(hint, [ANSI.sub("", line) for line in errors[0]["traceback"]])

    def test_echo_is_the_repl_echo(self):
        _, outputs = self.run_cell("torch.tensor({{1.5, 2}, {3, 4}})")
        data = outputs[-1]["content"]["data"]
        self.assertEqual(data["text/plain"], "tensor([[1.5000, 2.0000],\n        [3.0000, 4.0000]])")
        _, outputs = self.run_cell("z = 3;")
        self.assertFalse([o for o in outputs if o["msg_type"] == "execute_result"])
        _, outputs = self.run_cell("nil")
        self.assertFalse([o for o in outputs if o["msg_type"] == "execute_result"])
        # the last statement after a ';' echoes, as IPython splits statements there
        _, outputs = self.run_cell("w = 2; w")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "2")
        _, outputs = self.run_cell('print("a;b"); torch.ones(2):sum()')
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "tensor(2.)")
        _, outputs = self.run_cell("w = 3; w;")
        self.assertFalse([o for o in outputs if o["msg_type"] == "execute_result"])

    def test_output_history(self):
        # IPython's _ and Out[N], N the execution count the reply names
        reply, outputs = self.run_cell("torch.arange(3) * 2")
        n = reply["execution_count"]
        _, outputs = self.run_cell("_ + 1")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "tensor([1, 3, 5])")
        _, outputs = self.run_cell("Out[%d]" % n)
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "tensor([0, 2, 4])")
        _, outputs = self.run_cell("_%d" % (n + 1))
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "tensor([1, 3, 5])")

    def test_rich_output(self):
        _, outputs = self.run_cell('torch.tensor({{1.5, 2}, {3, 4}}, {device="cuda:1"})')
        html = outputs[-1]["content"]["data"]["text/html"]
        # the shape heads the table in a div of its own (a <caption> wraps to the table's width)
        self.assertIn("<div style=\"font-family: monospace\">tensor of shape (2, 2), device='cuda:1'</div>", html)
        self.assertNotIn("<caption", html)
        self.assertIn('<td style="text-align: right">1.5000</td><td style="text-align: right">2.0000</td>', html)
        self.assertEqual(html.count("<tr>"), 2)
        _, outputs = self.run_cell("torch.zeros(2000, 3)")  # summarised as the repr is
        html = outputs[-1]["content"]["data"]["text/html"]
        self.assertEqual(html.count("<tr>"), 7)  # 3 rows, the ellipsis, 3 rows
        self.assertIn("\u22ee", html)
        _, outputs = self.run_cell("torch.arange(3)")
        self.assertEqual(set(outputs[-1]["content"]["data"]), {"text/plain"})
        _, outputs = self.run_cell("torch.cuda.smi()")
        data = outputs[-1]["content"]["data"]
        self.assertTrue(data["text/plain"].startswith("+---"))
        self.assertIn(">Memory-Usage</td>", data["text/html"])
        _, outputs = self.run_cell("torch.cuda.memory_summary()")
        html = outputs[-1]["content"]["data"]["text/html"]
        self.assertIn(">PyTorch CUDA memory summary, device ID 0</td>", html)
        self.assertIn("<td style=\"white-space: pre; text-align: left\">Allocated memory</td>", html)

    def test_stream_order_and_last_value(self):
        _, outputs = self.run_cell('print("a")\nio.write("b\\n")\n7')
        streams = "".join(o["content"]["text"] for o in outputs if o["msg_type"] == "stream")
        self.assertEqual(streams, "a\nb\n")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "7")

    def test_shell_and_time_magic(self):
        _, outputs = self.run_cell("!echo from-the-shell")
        self.assertIn("from-the-shell", "".join(o["content"].get("text", "") for o in outputs))
        _, outputs = self.run_cell("%time torch.ones(3):sum()")
        text = "".join(o["content"].get("text", "") for o in outputs if o["msg_type"] == "stream")
        self.assertIn("Wall time:", text)
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "tensor(3.)")
        _, outputs = self.run_cell("%%time\nlocal t = torch.ones(4)\nt:sum()")
        text = "".join(o["content"].get("text", "") for o in outputs if o["msg_type"] == "stream")
        self.assertIn("Wall time:", text)
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "tensor(4.)")
        # %who with a type only this cell makes (the kernel's namespace is shared by the tests)
        self.run_cell("WhoProbe = nn.Module:extend('WhoProbe')\nwho_probe = WhoProbe()")
        _, outputs = self.run_cell("%who WhoProbe")
        text = "".join(o["content"].get("text", "") for o in outputs if o["msg_type"] == "stream")
        self.assertEqual(text, "who_probe\t \n")

    def of_type(self, outputs, kind):
        return [o["content"] for o in outputs if o["msg_type"] == kind]

    def test_display_ids_and_updates(self):
        _, outputs = self.run_cell('id = display(torch.zeros(2), {display_id = "fig"})\n'
                                   'update_display(torch.ones(2, 2), {display_id = id})\nid')
        shown, updated = self.of_type(outputs, "display_data"), self.of_type(outputs, "update_display_data")
        self.assertEqual((len(shown), len(updated)), (1, 1))
        self.assertEqual(shown[0]["transient"], {"display_id": "fig"})
        self.assertEqual(updated[0]["transient"], {"display_id": "fig"})
        self.assertEqual(shown[0]["data"], {"text/plain": "tensor([0., 0.])"})
        self.assertEqual(updated[0]["data"]["text/plain"], "tensor([[1., 1.],\n        [1., 1.]])")
        self.assertIn("text/html", updated[0]["data"])  # the echo's rich forms, as for the cell's value
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "'fig'")  # display returned the id
        _, outputs = self.run_cell("fresh = display(1, {display_id = true})\ndisplay(2)\nfresh")
        shown = self.of_type(outputs, "display_data")
        self.assertRegex(shown[0]["transient"]["display_id"], "^[0-9a-f]{32}$")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], repr(shown[0]["transient"]["display_id"]))
        self.assertNotIn("display_id", shown[1].get("transient", {}))
        reply, _ = self.run_cell("update_display(1)")
        self.assertEqual((reply["ename"], reply["evalue"]),
                         ("TypeError", "update_display() missing 1 required keyword-only argument: 'display_id'"))

    def test_mimebundle_for_display_and_the_cell_value(self):
        png = b"\x89PNG\r\n\x1a\n\x00\xff\x01"
        _, outputs = self.run_cell(
            'Fig = {__mimebundle = function(self) return {["image/png"] = "\\137PNG\\r\\n\\26\\n\\0\\255\\1",\n'
            '  ["image/svg+xml"] = "<svg/>", ["text/plain"] = "<Figure " .. self.n .. ">"} end}\n'
            'display(setmetatable({n = 1}, Fig))\nsetmetatable({n = 2}, Fig)')
        shown = self.of_type(outputs, "display_data")
        self.assertEqual(len(shown), 1)
        self.assertEqual(shown[0]["data"], {"text/plain": "<Figure 1>", "image/svg+xml": "<svg/>",
                                            "image/png": base64.b64encode(png).decode()})
        result = outputs[-1]["content"]
        self.assertEqual(outputs[-1]["msg_type"], "execute_result")
        self.assertEqual(result["data"]["text/plain"], "<Figure 2>")
        self.assertEqual(result["data"]["image/png"], base64.b64encode(png).decode())
        # no text/plain in the bundle: the echo is added
        _, outputs = self.run_cell('setmetatable({}, {__mimebundle = function() return {["text/html"] = "<b>x</b>"} end,'
                                   ' __tostring = function() return "X" end})')
        self.assertEqual(outputs[-1]["content"]["data"], {"text/html": "<b>x</b>", "text/plain": "X"})
        # a failing __mimebundle: the error on stderr, the echo still shown
        _, outputs = self.run_cell('setmetatable({}, {__mimebundle = function() error("no picture", 0) end,'
                                   ' __tostring = function() return "Y" end})')
        self.assertIn("no picture", "".join(c["text"] for c in self.of_type(outputs, "stream")))
        self.assertEqual(outputs[-1]["content"]["data"], {"text/plain": "Y"})

    def test_output_arrives_while_the_cell_runs(self):
        time.sleep(0.2)
        self.flush_channels()
        sent = time.time()
        msg_id = self.kc.execute('print("early")\nio.write("partial\\n")\n'
                                 'local t = time.perf_counter()\nwhile time.perf_counter() - t < 2 do end\nprint("late")')
        streams = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=30)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                streams.append((time.time() - sent, msg))
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        reply = self.kc.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=30)
        self.assertEqual("".join(m["content"]["text"] for _, m in streams), "early\npartial\nlate\n")
        arrived, first = streams[0]
        self.assertTrue(first["content"]["text"].startswith("early\n"))
        self.assertLess(arrived, 1.5, "the first line came only when the cell ended")
        # the kernel stamped it well before its execute_reply
        self.assertGreater((reply["header"]["date"] - first["header"]["date"]).total_seconds(), 1.5)

    def test_progress_is_one_display_updated(self):
        _, outputs = self.run_cell('for i in torch.utils.progress(5, {desc = "steps"}) do\n'
                                   '  local t = time.perf_counter() while time.perf_counter() - t < 0.15 do end\nend')
        shown, updated = self.of_type(outputs, "display_data"), self.of_type(outputs, "update_display_data")
        self.assertEqual(len(shown), 1)
        display_id = shown[0]["transient"]["display_id"]
        self.assertGreaterEqual(len(updated), 3)
        self.assertEqual({u["transient"]["display_id"] for u in updated}, {display_id})
        final = updated[-1]["data"]
        self.assertRegex(final["text/plain"], r"^steps: 100%\|█+\| 5/5 \[00:0\d<00:00, [0-9.]+it/s\]$")
        self.assertIn('<progress value="5" max="5"', final["text/html"])
        self.assertFalse(self.of_type(outputs, "stream"))

    def test_plots_are_figures_updated_in_place(self):
        reply, outputs = self.run_cell('d2l.plot(torch.arange(5), {torch.arange(5):float():pow(2)}, "x", "y", {"f"})')
        if "needs cairo" in reply.get("evalue", ""):
            self.skipTest("SKIPPED: this gpulab was built without cairo: " + reply["evalue"])
        shown = self.of_type(outputs, "display_data")
        self.assertEqual(len(shown), 1)
        data = shown[0]["data"]
        self.assertEqual(data["text/plain"], "<Figure size 350x250 with 1 Axes>")
        self.assertTrue(data["image/svg+xml"].lstrip().startswith("<?xml") or "<svg" in data["image/svg+xml"])
        self.assertTrue(base64.b64decode(data["image/png"]).startswith(b"\x89PNG\r\n\x1a\n"))
        self.assertFalse(self.of_type(outputs, "stream"), "no figure file or sparkline in a notebook")
        # d2l's Animator: one display, then updates of that same display
        _, outputs = self.run_cell('a = d2l.Animator{xlabel = "epoch", legend = {"loss"}, xlim = {1, 3}}\n'
                                   'for e = 1, 3 do a:add(e, {1 / e}) end')
        shown, updated = self.of_type(outputs, "display_data"), self.of_type(outputs, "update_display_data")
        self.assertEqual((len(shown), len(updated)), (1, 2))
        display_id = shown[0]["transient"]["display_id"]
        self.assertEqual({u["transient"]["display_id"] for u in updated}, {display_id})
        self.assertIn("image/png", updated[-1]["data"])

    def test_kernel_info_names_gpulab_and_devices(self):
        msg_id = self.kc.kernel_info()
        reply = self.kc.get_shell_msg(timeout=10)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=10)
        content = reply["content"]
        self.assertEqual(content["implementation"], "gpulab")
        self.assertEqual(content["language_info"]["name"], "lua")
        self.assertIn("2 virtual devices", content["banner"])  # run.sh installs the kernel with --virtual-gpus 2

    def test_interrupt_while_busy_keeps_the_session(self):
        self.run_cell("before = 5")
        msg_id = self.kc.execute("while true do end")
        time.sleep(1.0)
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=20)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=20)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "KeyboardInterrupt")
        _, outputs = self.run_cell("before")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "5")

    def test_interrupt_while_idle_does_not_kill(self):
        for _ in range(3):
            self.km.interrupt_kernel()
            time.sleep(0.3)
        time.sleep(0.5)
        self.assertTrue(self.km.is_alive())
        _, outputs = self.run_cell("1 + 1")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "2")

    def test_badly_signed_messages_are_dropped(self):
        info = self.km.get_connection_info(session=False)
        key = info["key"]
        key = key if isinstance(key, bytes) else key.encode()
        url = "%s://%s:%s" % (info["transport"], info["ip"], info["shell_port"])
        ctx = zmq.Context.instance()
        logged = self.kernel_log().count("Signatures don't match")
        for wrong in (b"not-the-key", b""):
            session = Session(key=wrong, username="test")
            sock = ctx.socket(zmq.DEALER)
            sock.linger = 0
            sock.connect(url)
            session.send(sock, "execute_request", {"code": "signed_badly = 1", "silent": False,
                                                   "store_history": True, "user_expressions": {},
                                                   "allow_stdin": False, "stop_on_error": True})
            self.assertEqual(sock.poll(2000), 0, "the kernel answered a message signed with %r" % wrong)
            sock.close()
        # the same message with the right key is answered
        session = Session(key=key, username="test")
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(url)
        session.send(sock, "kernel_info_request", {})
        self.assertNotEqual(sock.poll(10000), 0, "no answer to a correctly signed message")
        sock.close()
        time.sleep(0.5)
        self.flush_channels()  # that request's busy/idle went to our iopub too
        self.assertTrue(self.km.is_alive())
        _, outputs = self.run_cell("signed_badly")
        self.assertFalse([o for o in outputs if o["msg_type"] == "execute_result"])
        # and the kernel said so on its stderr, once for each (xeus' log line)
        log = self.kernel_log()
        self.assertEqual(log.count("Signatures don't match") - logged, 2, "the kernel's stderr:\n" + log)

    def test_image_as_the_cells_value(self):
        _, outputs = self.run_cell("torch.utils.image(torch.rand(1, 8, 8))")
        result = outputs[-1]
        self.assertEqual(result["msg_type"], "execute_result")
        data = result["content"]["data"]
        self.assertEqual(data["text/plain"], "<Image mode=L size=8x8>")
        if "image/png" not in data:  # a build without cairo has no PNG writer
            _, probe = self.run_cell("torch._have_cairo()")
            self.assertEqual(probe[-1]["content"]["data"]["text/plain"], "false", data)
            self.skipTest("SKIPPED: this gpulab was built without cairo")
        png = base64.b64decode(data["image/png"])
        self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"))
        self.assertEqual(png[12:16], b"IHDR")
        self.assertEqual((int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")), (8, 8))

    def test_sockets_bound_to_the_connection_address_only(self):
        info = self.km.get_connection_info(session=False)
        ports = {info[k] for k in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")}
        found = {}
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            if not os.path.exists(table):
                continue
            for line in open(table).read().splitlines()[1:]:
                fields = line.split()
                addr, port = fields[1].split(":")
                if fields[3] == "0A" and int(port, 16) in ports:
                    found.setdefault(int(port, 16), set()).add(addr)
        self.assertEqual(set(found), ports)
        for port, addrs in found.items():
            self.assertEqual(addrs, {"0100007F"}, "port %d listens on %s" % (port, addrs))


if __name__ == "__main__":
    unittest.main(verbosity=2)
