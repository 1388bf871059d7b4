// servebox status page: polls the router's JSON (same origin, the login cookie rides along) and redraws.
"use strict";
const POLL_MS = 2000;
const $ = (sel) => document.querySelector(sel);

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const kid of kids) if (kid != null) node.append(kid);
  return node;
}

const dash = "—";
function duration(s) {
  if (s == null) return dash;
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 120) return `${s.toFixed(1)} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
const bytes = (b) => (b < 1024 ** 3 ? `${Math.round(b / 1024 ** 2)} MiB` : `${(b / 1024 ** 3).toFixed(1)} GiB`);
// epoch seconds (the request log) or ISO 8601 (incidents)
const clock = (t) => (t == null ? dash : new Date(typeof t === "number" ? t * 1000 : t).toLocaleTimeString([], { hour12: false }));

function toast(text) {
  const t = $("#toast");
  t.textContent = text;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 3000);
}

async function getJSON(path) {
  const r = await fetch(path, { credentials: "same-origin" });
  if (r.status === 401) { location.href = "/ui"; throw new Error("logged out"); }
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

async function act(model, action) {
  try {
    const r = await fetch(`/servebox/engines/${encodeURIComponent(model)}/${action}`, {
      method: "POST", credentials: "same-origin", headers: { "x-servebox-ui": "1" },
    });
    const body = await r.json();
    toast(r.ok ? `${model}: ${action} (${body.state})` : `${model}: ${body.error.message}`);
  } catch (e) { toast(`${model}: ${action} failed (${e.message})`); }
  refresh();
}

function memoryCell(m) {
  const cell = el("td", { class: "memory" });
  if (!m || m.measured_bytes == null) { cell.append(el("span", { class: "muted", text: dash })); return cell; }
  const planned = m.planned_gib;
  const used = m.measured_bytes / 1024 ** 3;
  cell.append(el("span", { class: "mem-text", text: `${bytes(m.measured_bytes)} measured` + (planned ? ` / ${planned} GiB planned` : "") }));
  if (!planned && !m.limit_gib) return cell; // nothing to compare with: the measured figure alone
  const scale = Math.max(used, planned || 0, m.limit_gib || 0) * 1.1;
  const bar = el("div", { class: "bar", title: m.measured_what });
  bar.append(el("div", { class: "used", style: `width:${(100 * used / scale).toFixed(1)}%` }));
  if (planned) bar.append(el("div", { class: "plan", style: `left:${(100 * planned / scale).toFixed(1)}%`, title: `planned ${planned} GiB` }));
  cell.append(bar);
  return cell;
}

function incidentCell(inc) {
  const cell = el("td", { class: "incident" });
  if (!inc) { cell.append(el("span", { class: "muted", text: "none" })); return cell; }
  const d = inc.diagnosis || {};
  cell.append(el("span", { class: "cause", text: `${clock(inc.time)} ${inc.state}: ${d.cause || inc.reason || ""}` }));
  if (d.fix) cell.append(el("span", { class: "fix", text: `fix: ${d.fix}` }));
  else if (d.verdict) cell.append(el("span", { class: "fix", text: `doctor: ${d.verdict}` }));
  if (inc.action) cell.append(el("span", { class: "fix", text: inc.action }));
  return cell;
}

function modelRow(name, e) {
  const buttons = el("td", { class: "actions" });
  if (e.managed) {
    const alive = e.alive;
    buttons.append(
      el("button", { "data-action": "start", "data-model": name, onclick: () => act(name, "start"), ...(alive ? { disabled: "" } : {}) }, "start"),
      el("button", { class: "danger", "data-action": "stop", "data-model": name, title: "stop and keep stopped", onclick: () => act(name, "stop"), ...(alive ? {} : { disabled: "" }) }, "stop"),
      el("button", { "data-action": "unload", "data-model": name, title: "free it; the next request loads it again", onclick: () => act(name, "unload"), ...(alive ? {} : { disabled: "" }) }, "unload"),
    );
  } else buttons.append(el("span", { class: "muted small", text: "systemd unit" }));
  return el("tr", { id: `model-${name}`, "data-model": name },
    el("td", {}, el("span", { class: "name", text: name }), el("span", { class: "engine", text: `${e.engine}${e.pid ? ` · pid ${e.pid}` : ""}${e.port ? ` · :${e.port}` : ""}` })),
    el("td", { class: "state" }, el("span", { class: `badge ${e.state}`, text: e.state }),
      ["idle", "busy"].includes(e.state) ? null : el("span", { class: "reason", text: e.reason || "" })),
    el("td", { class: "phase", text: e.phase || dash }),
    el("td", { class: "uptime", text: duration(e.uptime_s) }),
    el("td", { class: "restarts num", text: String(e.restarts ?? 0) }),
    el("td", { class: "inflight num", text: String(e.inflight ?? 0) }),
    memoryCell(e.memory),
    incidentCell(e.last_incident),
    buttons,
  );
}

function drawModels(status) {
  const body = $("#models tbody");
  const names = Object.keys(status.engines);
  body.replaceChildren(...names.map((n) => modelRow(n, status.engines[n])));
  const up = names.filter((n) => ["idle", "busy", "degraded"].includes(status.engines[n].state)).length;
  $("#summary").textContent = `${up} of ${names.length} model(s) serving`;
  const select = $("#log-model");
  if (select.options.length !== names.length) {
    const keep = select.value;
    select.replaceChildren(...names.map((n) => el("option", { value: n, text: n })));
    if (names.includes(keep)) select.value = keep;
  }
}

function drawRequests(rows) {
  $("#no-requests").style.display = rows.length ? "none" : "";
  $("#requests tbody").replaceChildren(...rows.map((r) => el("tr", { class: "request" },
    el("td", { text: clock(r.at) }),
    el("td", { text: r.model }),
    el("td", { class: "muted", text: r.path.replace("/v1/", "") + (r.stream ? " ⇢" : "") , title: r.stream ? "streamed" : "" }),
    el("td", { class: "status", text: r.status ? String(r.status) : dash }),
    el("td", { class: r.outcome === "ok" ? "outcome-ok" : r.outcome === "in flight" ? "muted" : "outcome-bad", text: r.outcome }),
    el("td", { class: "num tokens", text: r.completion_tokens == null ? dash : `${r.prompt_tokens ?? "?"} → ${r.completion_tokens}` }),
    el("td", { class: "num", text: r.stream ? duration(r.ttft_s) : dash }),
    el("td", { class: "num", text: duration(r.duration_s) }),
    el("td", { class: "num tps", text: r.tokens_per_s == null ? dash : r.tokens_per_s.toFixed(1) }),
  )));
}

async function drawLog() {
  const model = $("#log-model").value;
  if (!model) return;
  const r = await fetch(`/servebox/engines/${encodeURIComponent(model)}/log?lines=300`, { credentials: "same-origin" });
  const pre = $("#log");
  const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 20;
  pre.textContent = r.ok ? await r.text() : `log unavailable (${r.status})`;
  if ($("#log-follow").checked && atBottom) pre.scrollTop = pre.scrollHeight;
}

async function refresh() {
  try {
    const [status, reqs] = await Promise.all([getJSON("/servebox/status"), getJSON("/servebox/requests")]);
    drawModels(status);
    drawRequests(reqs.requests);
    await drawLog();
    $("#updated").textContent = `updated ${clock(Date.now() / 1000)}`;
  } catch (e) {
    $("#updated").textContent = `router unreachable (${e.message})`;
  }
}

$("#log-model").addEventListener("change", () => { $("#log").textContent = ""; drawLog().then(() => { $("#log").scrollTop = 1e9; }); });
refresh().then(() => { $("#log").scrollTop = 1e9; });
setInterval(refresh, POLL_MS);
