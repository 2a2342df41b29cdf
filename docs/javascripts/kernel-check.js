// The re-check buttons of the claims ledger's pages: each block (class kernel-check, written by
// verify/ledger_pages.py) carries a kernel check the audit ran, its request and the answer the audit recorded. The
// button runs the request again in this browser, with the kernel's own code (kernel.js: the repository's spec/, byte
// for byte, under Pyodide), and shows the verdict beside the ledger's. Nothing loads before the first click.
import { Cancelled, kernel } from "./kernel.js";

const VERDICT = { 0: "holds", 1: "does not hold", 2: "bad input", 3: "a bug of ldpspec", 4: "undecided" };

function verdict(answer) {
  return `${VERDICT[answer.status] ?? "?"} (exit ${answer.status})`;
}

async function recheck(block, button, result) {
  const { request, answer: recorded } = JSON.parse(block.querySelector(".kernel-check-data").textContent);
  button.disabled = true;
  result.dataset.state = "running";
  result.textContent = kernel.started ? "running" : "starting the kernel (loaded once, then kept by the browser)";
  try {
    const answer = await kernel.run(request, { onStage: (text) => { result.textContent = text; } });
    const manifest = await kernel.manifest();
    const same = answer.status === recorded.status && answer.stdout === recorded.stdout &&
      answer.stderr === recorded.stderr;
    result.dataset.state = same ? "agrees" : "differs";
    result.dataset.status = answer.status;
    result.replaceChildren();
    const line = document.createElement("p");
    line.textContent = `In your browser: ${verdict(answer)}. The ledger: ${verdict(recorded)}. ` + (same
      ? "The same answer, JSON for JSON: this counterexample was re-checked by the code you just ran "
      : "The answers DIFFER: please report this, with this page's address. Computed by ") +
      `(the kernel's spec/ as the site serves it, on Python ${manifest.python} under Pyodide ${manifest.pyodide}, ` +
      `mpmath ${manifest.mpmath}).`;
    const details = document.createElement("details");
    details.append(Object.assign(document.createElement("summary"), { textContent: "the answer's JSON" }),
                   Object.assign(document.createElement("pre"), { textContent: answer.stdout || answer.stderr }));
    result.append(line, details);
  } catch (error) {
    result.dataset.state = error instanceof Cancelled ? "cancelled" : "failed";
    result.textContent = `The kernel could not run here: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

for (const block of document.querySelectorAll(".kernel-check")) {
  const button = block.querySelector(".kernel-check-run");
  const result = block.querySelector(".kernel-check-result");
  button.addEventListener("click", () => recheck(block, button, result));
}
