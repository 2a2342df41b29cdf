// The kernel in a Web Worker: Pyodide (CPython in WebAssembly), mpmath and the kernel, every file served by this site
// (try/runtime/, vendored and checked by the build: docs/hooks/runtime.py). Loaded on first use, by the Try-it page or
// a claim's re-check button (kernel.js); the page stays responsive while a check runs here.
//
// Messages in: {id, request} with request as commands.answer takes it (reference/tools/commands.py).
// Messages out: {type: "stage", text} while loading; {type: "progress", what, done, total} from the kernel's long
// loops (spec.progress); {id, type: "answer", answer: {status, stdout, stderr}}; {id, type: "failed", message} when
// the runtime itself fails (the kernel's own errors are answers, as on the command line).
import { loadPyodide } from "../try/runtime/pyodide/pyodide.mjs";

const RUNTIME = new URL("../try/runtime/", import.meta.url);
const GLUE = `
import json
from ldpspec.reference.tools import commands

def run_request(text, progress):
    return json.dumps(commands.answer(json.loads(text), progress))
`;

let started = null;

async function fetched(name) {
  const response = await fetch(new URL(name, RUNTIME));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function start() {
  self.postMessage({ type: "stage", text: "loading Python (Pyodide)" });
  const manifest = JSON.parse(new TextDecoder().decode(await fetched("manifest.json")));
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", RUNTIME).href });
  self.postMessage({ type: "stage", text: "loading mpmath and the kernel" });
  const [wheel, kernel] = await Promise.all([fetched(manifest.mpmath_wheel), fetched(manifest.kernel)]);
  const purelib = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  pyodide.unpackArchive(wheel, "wheel", { extractDir: purelib });
  pyodide.unpackArchive(kernel, "zip", { extractDir: purelib });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  pyodide.runPython(GLUE);
  return { run: pyodide.globals.get("run_request"), manifest };
}

function progress(what, done, total) {  // at most ten messages a second, and always the last
  const now = performance.now();
  if (done < total && now - progress.last < 100) return;
  progress.last = now;
  self.postMessage({ type: "progress", what, done, total });
}
progress.last = 0;

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    started ??= start().catch((error) => {  // a failed start (the network, say) is tried again on the next run
      started = null;
      throw error;
    });
    const kernel = await started;
    if (request === "manifest") {
      self.postMessage({ id, type: "manifest", manifest: kernel.manifest });
      return;
    }
    self.postMessage({ type: "stage", text: "running" });
    const answer = JSON.parse(kernel.run(JSON.stringify(request), progress));
    self.postMessage({ id, type: "answer", answer });
  } catch (error) {
    self.postMessage({ id, type: "failed", message: String(error && error.message || error) });
  }
};
