// The Try-it page (docs/try.md): a form for `ldpspec check` and `ldpspec profile`, answered by the kernel in a Web
// Worker (kernel.js). The request is what reference/tools/commands.py's `answer` takes: the options as texts, as typed
// on the command line; an option left empty is not given (the file's privacy or reading section applies).
import { Cancelled, kernel, summary } from "./kernel.js";

const options = JSON.parse(document.getElementById("try-options").textContent);
const examples = JSON.parse(document.getElementById("try-examples").textContent);
const $ = (id) => document.getElementById(id);
const EXAMPLES = new URL("../examples/", document.baseURI);

function fillSelect(select, values) {
  for (const value of values) select.add(new Option(value.label ?? value, value.value ?? value));
}

fillSelect($("try-example"), examples.map((e) => ({ value: e.name, label: `${e.name}: ${e.description}` })));
fillSelect($("try-notion"), options.notions.map((n) => ({ value: n.name, label: `${n.name} (${n.definition})` })));
fillSelect($("try-rows"), options.rows);
fillSelect($("try-numbers"), options.numbers);
$("try-max-entries").placeholder = options.max_entries;
$("try-max-work").placeholder = options.max_work;

function notion() {
  return options.notions.find((n) => n.name === $("try-notion").value);
}

function showParameters() {
  const box = $("try-parameters");
  box.replaceChildren();
  if ($("try-command").value !== "check") return;
  for (const parameter of notion().parameters) {
    const label = document.createElement("label");
    label.title = parameter.help;
    label.append(Object.assign(document.createElement("code"), { textContent: `--${parameter.name}` }), " ");
    let field;
    if (parameter.choices) {
      field = document.createElement("select");
      field.add(new Option("(from the file)", ""));
      fillSelect(field, parameter.choices);
    } else {
      field = Object.assign(document.createElement("input"), { size: 28, placeholder: "from the file's privacy section" });
    }
    field.dataset.parameter = parameter.name;
    label.append(field);
    box.append(label);
  }
  commandLine();
}

function request() {
  const given = (id) => $(id).value.trim() === "" ? null : $(id).value.trim();
  const command = $("try-command").value;
  const request = { command, text: $("try-text").value, rows: given("try-rows"), numbers: given("try-numbers"),
                    remainder_to: given("try-remainder-to"), max_entries: given("try-max-entries"),
                    max_work: given("try-max-work"), full: $("try-full").checked };
  if (command === "check") {
    request.notion = $("try-notion").value;
    request.parameters = {};
    for (const field of $("try-parameters").querySelectorAll("[data-parameter]")) {
      if (field.value.trim() !== "") request.parameters[field.dataset.parameter] = field.value.trim();
    }
  }
  return request;
}

function quoted(text) {  // a shell word
  return /^[A-Za-z0-9_.,:\/=+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

function commandLine() {
  const r = request();
  const words = ["ldpspec", r.command, $("try-example").value ? `docs/examples/${$("try-example").value}` : "CHANNEL.json"];
  if (r.command === "check") {
    words.push("--notion", r.notion);
    for (const [name, text] of Object.entries(r.parameters)) words.push(`--${name}`, quoted(text));
  }
  for (const [key, option] of [["rows", "--rows"], ["remainder_to", "--remainder-to"], ["numbers", "--numbers"],
                               ["max_entries", "--max-entries"], ["max_work", "--max-work"]]) {
    if (r[key] !== null) words.push(option, quoted(r[key]));
  }
  if (r.full) words.push("--full");
  $("try-command-line").textContent = words.join(" ");
}

function setState(state, status) {
  $("try-result").dataset.state = state;
  if (status === undefined) delete $("try-result").dataset.status;
  else $("try-result").dataset.status = status;
  $("try-run").disabled = state === "running";
  $("try-cancel").disabled = state !== "running";
  $("try-progress").hidden = state !== "running";
}

async function run() {
  const sent = request();
  setState("running");
  $("try-summary").textContent = "";
  $("try-json").textContent = "";
  $("try-progress").removeAttribute("value");
  $("try-status").textContent = kernel.started ? "running" : "starting the kernel";
  try {
    const answer = await kernel.run(sent, {
      onStage: (text) => { $("try-status").textContent = text; },
      onProgress: (what, done, total) => {
        $("try-progress").max = total;
        $("try-progress").value = done;
        $("try-status").textContent = `${what}: ${Math.floor(100 * done / total)}% (${done.toLocaleString("en")} of ${total.toLocaleString("en")})`;
      },
    });
    $("try-summary").textContent = summary(sent, answer);
    $("try-json").textContent = answer.stdout;
    $("try-status").textContent = `exit status ${answer.status}` +
      ({ 0: " (holds)", 1: " (does not hold)", 2: " (bad input)", 3: " (a bug of ldpspec)", 4: " (undecided)" }[answer.status] ?? "");
    $("try-result").dataset.stderr = answer.stderr;
    setState("done", answer.status);
  } catch (error) {
    const cancelled = error instanceof Cancelled;
    $("try-status").textContent = cancelled ? "cancelled" : `the runtime failed: ${error.message}`;
    setState(cancelled ? "cancelled" : "failed");
  }
}

$("try-example").addEventListener("change", async () => {
  const name = $("try-example").value;
  if (name) {
    $("try").dataset.loading = name;  // until the file is in the text box
    const response = await fetch(new URL(name, EXAMPLES));
    $("try-text").value = await response.text();
    delete $("try").dataset.loading;
  }
  commandLine();
});
$("try-upload").addEventListener("change", async () => {
  const file = $("try-upload").files[0];
  if (!file) return;
  $("try").dataset.loading = file.name;
  $("try-example").value = "";
  try {  // as the command line reads a file: UTF-8, or refused with its message
    $("try-text").value = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await file.arrayBuffer());
  } catch {
    $("try-text").value = "";
    $("try-status").textContent = `ldpspec: error: channel file ${file.name} is not UTF-8 text`;
  }
  delete $("try").dataset.loading;
  commandLine();
});
$("try-text").addEventListener("input", () => { $("try-example").value = ""; commandLine(); });
$("try-command").addEventListener("change", () => {
  $("try-notion-label").hidden = $("try-command").value !== "check";
  showParameters();
});
$("try-notion").addEventListener("change", showParameters);
$("try").addEventListener("input", commandLine);
$("try").addEventListener("change", commandLine);
$("try-run").addEventListener("click", run);
$("try-cancel").addEventListener("click", () => kernel.cancel());
showParameters();
setState("idle");
document.getElementById("try").dataset.ready = "true";  // the page's script has run (the browser test waits for it)
