"""A UCI engine process for the tools: send lines, read them back with a timeout, check it lives.

Used by bad_input.py and ttd.py; python-chess's own engine classes (soak.py) hide the raw
protocol, which these tools need to see.
"""
import queue
import subprocess
import threading
import time


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self.stderr.append), daemon=True).start()

    @staticmethod
    def _read(stream, sink):
        for raw in stream:
            sink(raw.decode("utf-8", "replace").rstrip("\n"))

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def until(self, prefix, timeout=5.0):
        """Lines up to and including the first starting with `prefix`; None on timeout."""
        seen, deadline = [], time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.time()))
            except queue.Empty:
                return None
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def alive(self):
        return self.proc.poll() is None
