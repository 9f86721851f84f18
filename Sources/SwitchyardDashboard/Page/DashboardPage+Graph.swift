#if Dashboard
    extension DashboardPage {
        /// The part of the page's script that shows the dependency graph of the selected job (`graph.json`, fetched
        /// when a job is chosen and again after each update while it is shown): a layered layout, each job in the
        /// column after the latest of its dependencies (so dependencies are on the left and the jobs that wait on them
        /// on the right), the order within a column chosen by the mean position of each job's neighbours to keep
        /// edges short. Each job is a `g.node[data-job]` that selects that job's graph; each dependency a
        /// `path.edge`.
        static let scriptGraph = #"""
            const graphSection = document.getElementById("graph");
            const graphCanvas = document.getElementById("graph-canvas");

            function selectJob(source, job) {
                if (!source || !job) return;
                const same = state.selected && state.selected.source === source && state.selected.job === job;
                state.selected = { source, job };
                if (!same) state.graphKey = "";
                const wasHidden = graphSection.hidden;
                graphSection.hidden = false;
                if (!same) setText(document.getElementById("graph-summary"), "loading the graph of job " + job + "…");
                if (state.graphLoading) {
                    state.graphStale = true;
                } else {
                    loadGraph();
                }
                if (wasHidden || !same) {
                    graphSection.scrollIntoView({ block: "start" });
                    document.getElementById("graph-heading").focus({ preventScroll: true });
                }
            }

            function closeGraph() {
                state.selected = null;
                state.graphKey = "";
                graphSection.hidden = true;
                graphCanvas.replaceChildren();
            }

            async function loadGraph() {
                if (!state.selected || state.graphLoading) return;
                const { source, job } = state.selected;
                state.graphLoading = true;
                state.graphLoadedAt = Date.now();
                const address = basePath + "graph.json?" + query({ source, job, cap: graphCap });
                let graph = null;
                let problem = null;
                try {
                    const response = await fetch(address, { cache: "no-store" });
                    const body = await response.json().catch(() => null);
                    if (response.status === 404) {
                        state.selected.missing = true;
                        const why = body && body.error ? ": " + body.error : ".";
                        problem = "Job " + job + " is no longer running or waiting" + why;
                    } else if (!response.ok || !body) {
                        problem = "The graph cannot be loaded: " + ((body && body.error) || "HTTP " + response.status);
                    } else {
                        graph = body;
                    }
                } catch (error) {
                    problem = "The graph cannot be loaded: " + error.message;
                } finally {
                    state.graphLoading = false;
                }
                const current = state.selected && state.selected.source === source && state.selected.job === job;
                if (current && !state.graphStale) {
                    if (graph) {
                        renderGraph(graph);
                    } else {
                        state.graphKey = "";
                        setText(document.getElementById("graph-summary"), problem);
                        document.getElementById("graph-truncated").hidden = true;
                        graphCanvas.replaceChildren();
                    }
                }
                if (state.graphStale) {
                    state.graphStale = false;
                    loadGraph();
                }
            }

            // Each job's column: 0 for a job none of whose dependencies is in the graph, else one more than the
            // latest of its dependencies' (a cycle, which a graph never holds, is cut where it is met).
            function graphLayers(nodes, incoming) {
                const layers = new Map();
                const visiting = new Set();
                function layerOf(id) {
                    if (layers.has(id)) return layers.get(id);
                    if (visiting.has(id)) return 0;
                    visiting.add(id);
                    let layer = 0;
                    for (const dependency of incoming.get(id) || []) layer = Math.max(layer, layerOf(dependency) + 1);
                    visiting.delete(id);
                    layers.set(id, layer);
                    return layer;
                }
                for (const node of nodes) layerOf(node.id);
                return layers;
            }

            // Orders each column by the mean position of its jobs' neighbours in the column before (left to right),
            // then after (right to left): the classic barycenter sweeps, twice.
            function orderColumns(columns, incoming, outgoing) {
                const position = new Map();
                const place = (column) => column.forEach((id, index) => position.set(id, index));
                columns.forEach(place);
                const mean = (ids, fallback) => {
                    const known = ids.filter((id) => position.has(id));
                    if (known.length === 0) return fallback;
                    return known.reduce((sum, id) => sum + position.get(id), 0) / known.length;
                };
                const sweep = (column, neighbours) => {
                    const weights = new Map(column.map((id, index) => [id, mean(neighbours.get(id) || [], index)]));
                    column.sort((a, b) => weights.get(a) - weights.get(b));
                    place(column);
                };
                for (let round = 0; round < 2; round += 1) {
                    for (let index = 1; index < columns.length; index += 1) sweep(columns[index], incoming);
                    for (let index = columns.length - 2; index >= 0; index -= 1) sweep(columns[index], outgoing);
                }
            }

            function jobCount(number) {
                return number === 0 ? "no job" : count(number) + (number === 1 ? " job" : " jobs");
            }

            function shorten(text, most) {
                return text.length > most ? text.slice(0, most - 1) + "…" : text;
            }

            function renderGraph(graph) {
                const nodes = graph.nodes || [];
                const byId = new Map(nodes.map((node) => [node.id, node]));
                const edges = (graph.edges || []).filter((edge) => byId.has(edge.from) && byId.has(edge.to));
                const truncated = document.getElementById("graph-truncated");
                truncated.hidden = !graph.truncated;
                setText(truncated, nodes.length >= graph.cap
                    ? "graph truncated at " + count(graph.cap) + " jobs"
                    : "graph truncated: it names jobs that are not listed (finished, or past the lists' limit)");
                const rootNode = byId.get(graph.root);
                const rootName = rootNode ? rootNode.name : "job " + graph.root;
                const incoming = new Map();
                const outgoing = new Map();
                for (const edge of edges) {
                    if (!incoming.has(edge.to)) incoming.set(edge.to, []);
                    incoming.get(edge.to).push(edge.from);
                    if (!outgoing.has(edge.from)) outgoing.set(edge.from, []);
                    outgoing.get(edge.from).push(edge.to);
                }
                const reach = (start, next) => {
                    const seen = new Set();
                    const stack = [start];
                    while (stack.length > 0) {
                        for (const id of next.get(stack.pop()) || []) {
                            if (!seen.has(id)) {
                                seen.add(id);
                                stack.push(id);
                            }
                        }
                    }
                    seen.delete(start);
                    return seen.size;
                };
                const before = reach(graph.root, incoming);
                const after = reach(graph.root, outgoing);
                const summary = rootName + " waits on " + jobCount(before) + "; "
                    + (after === 0 ? "no job waits" : jobCount(after) + (after === 1 ? " waits" : " wait")) + " on it.";
                setText(document.getElementById("graph-summary"), summary);
                const key = JSON.stringify([nodes, edges, graph.root]);
                if (state.graphKey === key) return;
                state.graphKey = key;

                const layers = graphLayers(nodes, incoming);
                const columns = [];
                for (const node of nodes) {
                    const layer = layers.get(node.id);
                    while (columns.length <= layer) columns.push([]);
                    columns[layer].push(node.id);
                }
                orderColumns(columns, incoming, outgoing);
                const nodeWidth = 184;
                const nodeHeight = 46;
                const columnGap = 72;
                const rowGap = 18;
                const margin = 8;
                const tallest = Math.max(1, ...columns.map((column) => column.length));
                const width = margin * 2 + columns.length * nodeWidth + Math.max(0, columns.length - 1) * columnGap;
                const height = margin * 2 + tallest * nodeHeight + (tallest - 1) * rowGap;
                const spot = new Map();
                columns.forEach((column, layer) => {
                    const top = margin + ((tallest - column.length) * (nodeHeight + rowGap)) / 2;
                    column.forEach((id, index) => {
                        const x = margin + layer * (nodeWidth + columnGap);
                        spot.set(id, { x, y: top + index * (nodeHeight + rowGap) });
                    });
                });

                const svg = svgElement("svg", {
                    width, height, viewBox: "0 0 " + width + " " + height, role: "group",
                    "aria-label": "dependency graph of " + rootName + ": " + nodes.length + " jobs",
                });
                svg.append(svgElement("defs", {}, svgElement("marker", {
                    id: "graph-arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7,
                    orient: "auto-start-reverse",
                }, svgElement("path", { class: "arrow", d: "M0,0 L10,5 L0,10 z" }))));
                const edgeGroup = svgElement("g", { class: "edges", "aria-hidden": "true" });
                for (const edge of edges) {
                    const from = spot.get(edge.from);
                    const to = spot.get(edge.to);
                    const x1 = from.x + nodeWidth;
                    const y1 = from.y + nodeHeight / 2;
                    const x2 = to.x - 1;
                    const y2 = to.y + nodeHeight / 2;
                    const bend = Math.max(24, Math.abs(x2 - x1) / 2);
                    edgeGroup.append(svgElement("path", {
                        class: "edge", "data-from": edge.from, "data-to": edge.to, "marker-end": "url(#graph-arrow)",
                        d: "M" + x1 + "," + y1 + " C" + (x1 + bend) + "," + y1 + " " + (x2 - bend) + "," + y2 + " "
                            + x2 + "," + y2,
                    }));
                }
                svg.append(edgeGroup);
                for (const node of nodes) {
                    const at = spot.get(node.id);
                    const isRoot = node.id === graph.root;
                    const description = node.name + ", queue " + node.queue + ", " + node.state
                        + (isRoot ? " (selected)" : "");
                    svg.append(svgElement("g", {
                        class: "node state-" + String(node.state).replace(/[^A-Za-z0-9_-]/g, "")
                            + (isRoot ? " root" : ""),
                        "data-job": node.id, transform: "translate(" + at.x + "," + at.y + ")",
                        tabindex: 0, role: "button", "aria-label": description + ": show its graph",
                    },
                    svgElement("title", {}, description + " (job " + node.id + ")"),
                    svgElement("rect", { width: nodeWidth, height: nodeHeight, rx: 6, ry: 6 }),
                    svgElement("text", { class: "node-name", x: 10, y: 19 }, shorten(node.name, 24)),
                    svgElement("text", { class: "node-meta", x: 10, y: 36 },
                        shorten(node.queue + " · " + node.state, 28))));
                }
                graphCanvas.replaceChildren(svg);
                markScrollables();
            }

            function onGraphKey(event) {
                if (event.key !== "Enter" && event.key !== " ") return;
                const node = event.target.closest("g.node");
                if (!node || !state.selected) return;
                event.preventDefault();
                selectJob(state.selected.source, node.dataset.job);
            }
            """#
    }
#endif
