// The ledger table's filters (verify/ledger_pages.py writes the table): a row shows when, for every filter set, its
// data attribute holds the chosen value (notion and method hold several, separated by "|").
function setUpLedgerTable() {
  const table = document.querySelector("table.ledger-table");
  if (!table) return;
  const filters = Array.from(document.querySelectorAll("select[data-ledger-filter]"));
  const count = document.querySelector("[data-ledger-count]");
  const rows = Array.from(table.querySelectorAll("tbody tr"));
  const apply = () => {
    let shown = 0;
    for (const row of rows) {
      const visible = filters.every((select) => {
        const wanted = select.value;
        return !wanted || (row.dataset[select.dataset.ledgerFilter] || "").split("|").includes(wanted);
      });
      row.hidden = !visible;
      if (visible) shown += 1;
    }
    if (count) count.textContent = `${shown} of ${rows.length} claims`;
  };
  for (const select of filters) select.addEventListener("change", apply);
  apply();
}

if (typeof document$ !== "undefined") {
  document$.subscribe(setUpLedgerTable);  // Material's page-load signal
} else {
  document.addEventListener("DOMContentLoaded", setUpLedgerTable);
}
