// The kernel on the page: one Web Worker (kernel-worker.mjs) running the repository's kernel under Pyodide, started
// on first use, never at page load. `run` sends one request (as reference/tools/commands.py's `answer` takes it) and
// resolves to {status, stdout, stderr}, what `ldpspec check` or `ldpspec profile` gives for the same file and options.
// `cancel` ends the worker (a running check cannot be interrupted from outside), so the next run starts a new one
// from the browser's cache.
const WORKER = new URL("./kernel-worker.mjs", import.meta.url);

export class Cancelled extends Error {}

class Kernel {
  constructor() {
    this.worker = null;
    this.waiting = new Map();  // id -> {resolve, reject, onStage, onProgress}
    this.next = 0;
  }

  get started() {
    return this.worker !== null;
  }

  _worker() {
    if (this.worker === null) {
      this.worker = new Worker(WORKER, { type: "module" });
      this.worker.onmessage = (event) => this._message(event.data);
      this.worker.onerror = (event) => this._fail(new Error(event.message || "the kernel's worker failed to start"));
    }
    return this.worker;
  }

  _message(message) {
    if (message.type === "stage" || message.type === "progress") {
      for (const waiting of this.waiting.values()) {
        if (message.type === "stage") waiting.onStage?.(message.text);
        else waiting.onProgress?.(message.what, message.done, message.total);
      }
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    if (message.type === "failed") waiting.reject(new Error(message.message));
    else waiting.resolve(message.type === "manifest" ? message.manifest : message.answer);
  }

  _fail(error) {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }

  run(request, { onStage, onProgress } = {}) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onStage, onProgress });
      this._worker().postMessage({ id, request });
    });
  }

  manifest() {  // the served runtime's versions (try/runtime/manifest.json, as the worker read it)
    return this.run("manifest");
  }

  cancel() {
    if (this.worker !== null) this.worker.terminate();
    this.worker = null;
    this._fail(new Cancelled("cancelled"));
  }
}

export const kernel = new Kernel();

// A short human summary of an answer, above its JSON.
export function summary(request, answer) {
  if (answer.status === 2 || answer.status === 3) return answer.stderr.trim();
  if (answer.status === 4) return "Undecided at the largest precision: " + answer.stderr.trim();
  const result = JSON.parse(answer.stdout);
  if (request.command === "profile") {
    const epsilon = result.ldp_epsilon_exact ?? result.ldp_epsilon;
    const size = result.inputs !== undefined ? `${result.inputs} inputs, ${result.outputs} outputs; ` : "";
    return `${size}the smallest ε for which the channel is ε-LDP: ${epsilon}` +
      (result.ldp_epsilon_exact ? ` ≈ ${Number(result.ldp_epsilon).toPrecision(6)}` : "") + ".";
  }
  const margin = Number(result.margin);
  const marginText = result.margin.length <= 12 || !Number.isFinite(margin) ? result.margin : margin.toPrecision(6);
  let text = `${result.notion} ${result.holds ? "holds" : "does not hold"} (margin ${marginText}).`;
  const witness = result.witness;
  if (witness) text += ` ${result.holds ? "Tightest" : "Failing"} case: ${witness.detail}.`;
  return text;
}
