#!/usr/bin/env python3
"""fault_proxy.py: an HTTP proxy on 127.0.0.1 in front of a real S3 server that injects the
faults the archive tests need: error answers (503 SlowDown, 500), a connection reset part-way
through an answer's body, a stall, a corrupted byte. Requests pass through byte for byte (the
Host header too, so SigV4 signatures stay valid).

  fault_proxy.py --upstream 127.0.0.1:PORT --plan PLAN.json --port-file F --log LOG

PLAN.json (re-read at every request, so a test changes it between steps): a list of
  {"method": "PUT", "query": "partNumber", "action": "status", "status": 503, "code": "SlowDown", "times": 2}
  {"method": "GET", "header": "range", "action": "reset", "after_bytes": 1000000, "times": 1}
  {"action": "stall", "seconds": 5, "times": 1}   {"method": "GET", "action": "corrupt", "times": 1}
  {"method": "POST", "query": "uploadId", "action": "tamper", "how": "swap-parts", "part_bytes": N, "credentials": {...}}
  {"method": "PUT", "noquery": true, "action": "tamper", "how": "flip-byte", "credentials": {...}}
"tamper" is a store that keeps a copy other than the one sent: once the request succeeded
upstream, and before its answer is relayed, the object is rewritten in the store (botocore,
signed with the credentials given: access_key, secret_key, region) with its first two parts
swapped or one byte flipped, under the same metadata (the CRC-32C the uploader attached
included) and the same size. Only a check of the stored bytes themselves can tell.
Each fault fires on the next `times` matching requests; every firing is one JSON line in LOG.
"""
import argparse
import http.client
import http.server
import json
import os
import socket
import struct
import threading
import time
import urllib.parse

lock = threading.Lock()
fired = {}  # fault index -> times fired


def load_plan(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return []


def matching_fault(args, method, target, headers):
    plan = load_plan(args.plan)
    with lock:
        for i, fault in enumerate(plan):
            key = json.dumps(fault, sort_keys=True)
            if fired.get(key, 0) >= fault.get("times", 1):
                continue
            if fault.get("method") and fault["method"] != method:
                continue
            if fault.get("query") and fault["query"] not in target.split("?", 1)[-1]:
                continue
            if fault.get("noquery") and "?" in target:
                continue
            if fault.get("header") and fault["header"] not in {k.lower() for k in headers}:
                continue
            fired[key] = fired.get(key, 0) + 1
            with open(args.log, "a") as log:
                log.write(json.dumps({"fault": fault, "method": method, "target": target, "time": time.time()}) + "\n")
            return fault
    return None


def tamper(fault, upstream, target):
    """Rewrites the object named by target (path style) in the store behind the proxy, through
    awscli (Debian's bundles its own botocore, which no other Python can import)."""
    import subprocess
    import tempfile
    bucket, key = urllib.parse.unquote(target.split("?", 1)[0]).lstrip("/").split("/", 1)
    c = fault["credentials"]
    env = {**os.environ, "AWS_ACCESS_KEY_ID": c["access_key"], "AWS_SECRET_ACCESS_KEY": c["secret_key"],
           "AWS_DEFAULT_REGION": c["region"], "AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
           "AWS_EC2_METADATA_DISABLED": "true", "AWS_PAGER": ""}
    aws = ["/usr/bin/aws" if os.path.exists("/usr/bin/aws") else "aws", "--endpoint-url", f"http://{upstream}", "s3api"]
    with tempfile.TemporaryDirectory() as work:
        body = os.path.join(work, "body")
        got = subprocess.run([*aws, "get-object", "--bucket", bucket, "--key", key, body], env=env, capture_output=True, text=True, check=True)
        metadata = json.loads(got.stdout).get("Metadata", {})
        with open(body, "rb") as f:
            data = f.read()
        if fault["how"] == "swap-parts":
            n = fault["part_bytes"]
            data = data[n:2 * n] + data[:n] + data[2 * n:]
        else:
            at = fault.get("at", len(data) // 2)
            data = data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1:]
        with open(body, "wb") as f:
            f.write(data)
        subprocess.run([*aws, "put-object", "--bucket", bucket, "--key", key, "--body", body, "--metadata", json.dumps(metadata)],
                       env=env, capture_output=True, text=True, check=True)


def make_handler(args):
    host, port = args.upstream.split(":")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *unused):
            pass

        def reset(self):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()

        def relay(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            fault = matching_fault(args, self.command, self.path, self.headers.keys())
            action = fault["action"] if fault else None
            if action == "status":
                text = ('<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>injected by fault_proxy</Message></Error>'
                        % fault.get("code", "InternalError")).encode()
                self.send_response(fault["status"])
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)
                return
            if action == "stall":
                time.sleep(fault["seconds"])
            if action == "reset" and fault.get("before_answer"):
                return self.reset()
            upstream = http.client.HTTPConnection(host, int(port), timeout=600)
            upstream.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():
                upstream.putheader(name, value)
            upstream.endheaders(body if body else None)
            answer = upstream.getresponse()
            # http.client takes chunked answers apart: those are relayed whole, with their length.
            chunked = answer.getheader("Transfer-Encoding", "").lower() == "chunked" or action == "tamper"
            whole = answer.read() if chunked else None
            if action == "tamper" and answer.status == 200:
                tamper(fault, args.upstream, self.path)
            self.send_response_only(answer.status, answer.reason)
            for name, value in answer.getheaders():
                if name.lower() not in ("connection", "keep-alive", "transfer-encoding") and not (chunked and name.lower() == "content-length"):
                    self.send_header(name, value)
            if chunked:
                self.send_header("Content-Length", str(len(whole)))
            self.end_headers()
            if chunked:
                self.wfile.write(whole)
                upstream.close()
                return
            sent = 0
            corrupt = action == "corrupt"
            while True:
                chunk = answer.read(65536)
                if not chunk:
                    break
                if action == "reset" and sent + len(chunk) >= fault.get("after_bytes", 0):
                    self.wfile.write(chunk[: max(0, fault.get("after_bytes", 0) - sent)])
                    self.wfile.flush()
                    upstream.close()
                    return self.reset()
                if corrupt:
                    chunk = bytes([chunk[0] ^ 0x01]) + chunk[1:]
                    corrupt = False
                self.wfile.write(chunk)
                sent += len(chunk)
            upstream.close()

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = relay

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--plan", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(args))
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
