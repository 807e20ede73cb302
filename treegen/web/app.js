/* treegen in the browser: play with and explore strategy trees (docs/tree-format.md).
 *
 * Plain JavaScript, no build step, no libraries, no network beyond the page's own server: it works
 * offline, and opened from disk (file://) with a tree file the user chooses.
 *
 * The rules mirror treegen/rules.py: a code is the index of its symbol tuple in the game's sorted code
 * list; a hint is bulls * (positions + 1) + cows, written xAyB, or in the game's own notation (pegs BBW,
 * ball=3 strike=1). Every tree loaded is checked as `treegen verify` checks it: every secret of the game
 * is replayed through the tree, and the figures the file claims must be the ones the tree achieves.
 */
"use strict";

(function () {
  // ---------------------------------------------------------------------------------------------
  // Rules (treegen/rules.py)
  // ---------------------------------------------------------------------------------------------
  const SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const RULES = ["bulls-cows", "black-pegs", "jotto", "per-position"]; // rules.RULES
  const MARKS = "-YG"; // rules.MARKS: a position absent, elsewhere, right
  const MAX_CODES = 200000;
  const PRESETS = {
    "bulls-cows": [4, "0123456789", false, "ab"],
    "mastermind": [4, "123456", true, "pegs"],
    "numbers-baseball": [4, "0123456789", true, "baseball"],
    "mastermind-digits": [4, "0123456789", true, "pegs"],
    "smash-the-code": [4, "123456789", false, "pegs"],
    "royale": [5, "01234", true, "pegs"],
  };

  class TreeFileError extends Error {}

  class Game {
    constructor(name, positions, alphabet, repeats, notation, words, rule, guesses) {
      if (!(Number.isInteger(positions) && positions >= 1 && positions <= 8)) {
        throw new TreeFileError(`a game needs 1 to 8 positions, not ${positions}`);
      }
      if (typeof alphabet !== "string" || new Set(alphabet).size !== alphabet.length ||
          alphabet.length < 2 || alphabet.length > SYMBOLS.length) {
        throw new TreeFileError(`a game needs 2 to ${SYMBOLS.length} distinct symbols, not ${JSON.stringify(alphabet)}`);
      }
      if (!repeats && positions > alphabet.length) {
        throw new TreeFileError(`${positions} positions without repeats need at least ${positions} symbols`);
      }
      this.name = name;
      this.positions = positions;
      this.alphabet = alphabet;
      this.repeats = repeats;
      this.notation = notation;
      this.symbols = alphabet.length;
      // A list game (Word Mastermind): its codes are the words, in order, then any words that may be guessed but
      // are never the secret (rules.Game.guesses), so the secrets are the codes 0 .. secretCount - 1; no symmetry.
      this.words = words ? (guesses && guesses.length ? words.concat(guesses) : words) : null;
      this.extra = guesses && guesses.length ? guesses.length : 0;
      // How a guess is scored (rules.RULES): bulls and cows, black pegs only, Jotto (letters in common), or a
      // mark per position (right, elsewhere, absent).
      this.rule = rule || "bulls-cows";
      if (!RULES.includes(this.rule)) throw new TreeFileError(`unknown hint rule ${JSON.stringify(rule)}`);
      if (this.rule === "per-position" && positions > 5) throw new TreeFileError(`the per-position rule takes codes of 1 to 5 symbols, not ${positions}`);
      // Reordering positions changes the marks, so the relabellings the page follows trees by would not hold.
      if (this.rule === "per-position" && !words) throw new TreeFileError("the per-position rule is for a list of codes");
      let size = 1;
      for (let k = 0; k < positions; k++) size *= repeats ? this.symbols : this.symbols - k;
      this.size = this.words ? this.words.length : size;
      this.secretCount = this.size - this.extra;
      // Per position, a hint is the sum of mark_k * 3**k (0 absent, 1 elsewhere, 2 right): all right is the largest.
      this.winHint = this.rule === "per-position" ? 3 ** positions - 1 : positions * (positions + 1);
      this._index = null;
      this._possible = null;
      this._codes = null;
      this._cg = new Int32Array(this.symbols);
      this._cs = new Int32Array(this.symbols);
    }

    /** Every code as symbol indices, flat (code i is codes[i*P .. i*P+P-1]), in sorted order. */
    get codes() {
      if (this._codes) return this._codes;
      if (this.words) {
        const P = this.positions, out = new Uint8Array(this.size * P);
        this.words.forEach((w, i) => { for (let k = 0; k < P; k++) out[i * P + k] = this.alphabet.indexOf(w[k]); });
        this._codes = out;
        return out;
      }
      const P = this.positions, n = this.symbols, out = new Uint8Array(this.size * P);
      const cur = new Array(P).fill(0), used = new Array(n).fill(false);
      let k = 0;
      const rec = (pos) => {
        if (pos === P) {
          for (let i = 0; i < P; i++) out[k * P + i] = cur[i];
          k++;
          return;
        }
        for (let s = 0; s < n; s++) {
          if (!this.repeats && used[s]) continue;
          cur[pos] = s;
          used[s] = true;
          rec(pos + 1);
          used[s] = false;
        }
      };
      rec(0);
      this._codes = out;
      return out;
    }

    codeText(i) {
      const P = this.positions, c = this.codes;
      let t = "";
      for (let k = 0; k < P; k++) t += this.alphabet[c[i * P + k]];
      return t;
    }

    get index() {
      if (!this._index) {
        this._index = new Map();
        for (let i = 0; i < this.size; i++) this._index.set(this.codeText(i), i);
      }
      return this._index;
    }

    /** The code written as text (spaces ignored, any case), or an Error saying what is accepted. */
    parseCode(text) {
      const raw = String(text).replace(/\s+/g, "").toUpperCase();
      const rule = `${this.positions} symbols from ${this.alphabet}${this.repeats ? "" : ", all different"}`;
      if (raw.length !== this.positions) {
        return new Error(`“${text}” has ${raw.length} symbol${raw.length === 1 ? "" : "s"}; codes have ${rule}`);
      }
      for (const ch of raw) {
        if (this.alphabet.indexOf(ch) < 0) return new Error(`“${text}” uses ${ch}; codes use only the symbols ${this.alphabet}`);
      }
      if (!this.repeats && new Set(raw).size !== raw.length) {
        return new Error(`“${text}” repeats a symbol; codes have all different symbols`);
      }
      if (this.words && !this.index.has(raw)) return new Error(`“${text}” is not a word of ${this.name}'s list of ${this.size.toLocaleString("en")} words`);
      return this.index.get(raw);
    }

    /** The hint for code `g` against code `s`: bulls agree in place; cows are common symbols minus bulls. */
    score(g, s) {
      const P = this.positions, c = this.codes, cg = this._cg, cs = this._cs;
      if (this.rule === "per-position") return this.scoreMarks(g, s);
      cg.fill(0);
      cs.fill(0);
      let bulls = 0;
      for (let i = 0; i < P; i++) {
        const a = c[g * P + i], b = c[s * P + i];
        if (a === b) bulls++;
        cg[a]++;
        cs[b]++;
      }
      let common = 0;
      for (let x = 0; x < this.symbols; x++) common += cg[x] < cs[x] ? cg[x] : cs[x];
      return this.ruleHint(bulls, common);
    }

    /**
     * The per-position hint (rules.score_symbols): 2 where the codes agree; then from the left, 1 where the
     * guess's symbol has a copy left among the secret's positions not right (each 1 uses one up), else 0.
     */
    scoreMarks(g, s) {
      const P = this.positions, c = this.codes, left = this._cs;
      left.fill(0);
      for (let i = 0; i < P; i++) if (c[g * P + i] !== c[s * P + i]) left[c[s * P + i]]++;
      let h = 0, w = 1;
      for (let i = 0; i < P; i++, w *= 3) {
        const a = c[g * P + i];
        if (a === c[s * P + i]) h += 2 * w;
        else if (left[a] > 0) { left[a]--; h += w; }
      }
      return h;
    }

    /** The hint of `bulls` in place and `common` shared under the game's rule (rules.Game.rule_hint). */
    ruleHint(bulls, common) {
      const P = this.positions;
      if (this.rule === "black-pegs") return bulls * (P + 1);
      if (this.rule === "jotto") return bulls === P ? this.winHint : common;
      return bulls * (P + 1) + common - bulls;
    }

    hint(bulls, cows) { return bulls * (this.positions + 1) + cows; }
    splitHint(h) { return [Math.floor(h / (this.positions + 1)), h % (this.positions + 1)]; }
    /** The marks of a per-position hint, first position first (0 absent, 1 elsewhere, 2 right). */
    marks(h) { return Array.from({ length: this.positions }, (_, k) => Math.floor(h / 3 ** k) % 3); }
    formatHint(h) {
      if (this.rule === "per-position") return this.marks(h).map((m) => MARKS[m]).join("");
      const [b, c] = this.splitHint(h);
      return `${b}A${c}B`;
    }
    /** The hint of a canonical tree key (formatHint's form), or null when `key` is not one for this game. */
    keyHint(key) {
      if (this.rule === "per-position") {
        if (key.length !== this.positions || [...key].some((ch) => !MARKS.includes(ch))) return null;
        return [...key].reduce((h, ch, k) => h + MARKS.indexOf(ch) * 3 ** k, 0);
      }
      const m = HINT_KEY.exec(key);
      if (!m || Number(m[1]) + Number(m[2]) > this.positions) return null;
      return this.hint(Number(m[1]), Number(m[2]));
    }
    formatNative(h) {
      if (this.rule === "per-position") return null;
      const [b, c] = this.splitHint(h);
      if (this.rule === "jotto") return h === this.winHint ? "found" : `${c} in common`;
      if (this.rule === "black-pegs") return "B".repeat(b) || "-";
      if (this.notation === "baseball") return `ball=${b + c} strike=${b}`;
      if (this.notation === "pegs") return "B".repeat(b) + "W".repeat(c) || "-";
      return null;
    }
    /** The hint as the game writes it: xAyB, pegs, or ball/strike. */
    showHint(h) { return this.formatNative(h) || this.formatHint(h); }

    /**
     * The hints some guess and secret produce. Reordering the positions of both codes, or renaming
     * symbols, keeps the hint; so every secret scored against one sorted guess per partition of the
     * positions (symbol k repeated parts[k] times; without repeats only 0 1 2 ...) gives them all.
     */
    get possibleHints() {
      if (this._possible) return this._possible;
      if (this.rule === "per-position") {
        // Every pattern of marks but P - 1 right and one elsewhere (rules.Game.possible_hints).
        const seen = new Set();
        for (let h = 0; h <= this.winHint; h++) {
          const m = this.marks(h);
          if (!(m.filter((x) => x === 2).length === this.positions - 1 && m.includes(1))) seen.add(h);
        }
        this._possible = seen;
        return seen;
      }
      if (this.words) {
        // Of every arrangement of the symbols (a list's words give some of these): any bulls and cows that
        // fit in the positions, but for all but one in place and the last one misplaced.
        const P = this.positions, seen = new Set();
        for (let b = 0; b <= P; b++) for (let c = 0; b + c <= P; c++) if (!(b === P - 1 && c === 1)) seen.add(this.ruleHint(b, b + c));
        this._possible = seen;
        return seen;
      }
      const P = this.positions, seen = new Set(), guesses = [];
      const parts = (left, most, largest, acc) => {
        if (left === 0) { guesses.push(acc.flatMap((m, k) => Array(m).fill(this.alphabet[k])).join("")); return; }
        if (most === 0) return;
        for (let first = Math.min(left, largest); first >= 1; first--) parts(left - first, most - 1, first, acc.concat([first]));
      };
      parts(P, this.repeats ? Math.min(this.symbols, P) : P, this.repeats ? P : 1, []);
      for (const text of guesses) {
        const g = this.index.get(text);
        for (let s = 0; s < this.size; s++) seen.add(this.score(g, s));
      }
      this._possible = seen;
      return seen;
    }

    describe() {
      const scored = { "bulls-cows": "", "black-pegs": ", black pegs only", jotto: ", Jotto hints (letters in common)",
        "per-position": ", per-position hints (right, elsewhere, absent)" }[this.rule];
      const n = this.secretCount.toLocaleString("en");
      const more = this.extra ? `, and ${this.extra.toLocaleString("en")} more words to guess with` : "";
      if (this.words) return `a list of ${n} words of ${this.positions} letters${this.repeats ? "" : ", all different"}${scored}${more}, ${n} secrets`;
      return `${this.positions} positions, symbols ${this.alphabet}, ${this.repeats ? "repeats allowed" : "all different"}, ${this.size.toLocaleString("en")} secrets`;
    }
  }

  /** The preset or bc:P:N / mm:P:N spec of that name, or null. */
  function resolveGame(name) {
    const key = String(name).trim().toLowerCase();
    if (Object.prototype.hasOwnProperty.call(PRESETS, key)) {
      const [p, a, r, n] = PRESETS[key];
      return new Game(key, p, a, r, n);
    }
    const m = /^(bc|mm):([0-9]{1,3}):([0-9]{1,3})$/.exec(key);
    if (!m) return null;
    const p = Number(m[2]), n = Number(m[3]);
    if (p < 1 || p > 8 || n < 2 || n > SYMBOLS.length) {
      throw new TreeFileError(`game spec ${name} is out of range: positions 1-8 and symbols 2-${SYMBOLS.length}`);
    }
    // The canonical name (bc:03:06 is bc:3:6), as rules.resolve_game names it.
    return new Game(`${m[1]}:${p}:${n}`, p, SYMBOLS.slice(0, n), m[1] === "mm", m[1] === "mm" ? "pegs" : "ab");
  }

  /** Whether two games play by the same rules (rules.Game.same_rules), and have one name: the same codes and secrets
   * (for a list game, the same words and other guesses) scored by the same rule. */
  function sameRules(a, b) {
    const words = (g) => (g.words ? g.words.join(",") + "/" + g.extra : "");
    return a.name === b.name && a.alphabet === b.alphabet && a.positions === b.positions && a.repeats === b.repeats &&
      a.rule === b.rule && words(a) === words(b);
  }

  /** The game of a tree file's "game" object (rules.game_from_dict). */
  function gameFromDict(d) {
    if (!d || typeof d !== "object" || Array.isArray(d) || !("name" in d) || !("positions" in d) ||
        !("alphabet" in d) || !("repeats" in d)) {
      throw new TreeFileError(`"game" must be an object with name, positions, alphabet and repeats`);
    }
    let game;
    if ("words" in d) {
      const listed = (list) => Array.isArray(list) && list.length && list.every((w) => typeof w === "string" && w.length === d.positions &&
          [...w].every((ch) => typeof d.alphabet === "string" && d.alphabet.includes(ch))) && !list.some((w, i) => i && list[i - 1] >= w);
      if (!listed(d.words)) {
        throw new TreeFileError(`"words" must list the game's codes, in order, once each, ${d.positions} symbols of ${d.alphabet} each`);
      }
      if ("guesses" in d && (!listed(d.guesses) || d.guesses.some((w) => d.words.includes(w)))) {
        throw new TreeFileError(`"guesses" must list the other codes to guess with, in order, once each, none of them a word`);
      }
      game = new Game(String(d.name), d.positions, d.alphabet, Boolean(d.repeats), "ab", d.words, d.rule, d.guesses);
    } else if (d.rule && d.rule !== "bulls-cows") {
      game = new Game(String(d.name), d.positions, d.alphabet, Boolean(d.repeats), d.name === "black-pegs" ? "pegs" : "ab", null, d.rule);
    } else {
      game = resolveGame(d.name) || new Game(String(d.name), d.positions, d.alphabet, Boolean(d.repeats), "ab");
    }
    if (game.positions !== d.positions || game.alphabet !== d.alphabet || game.repeats !== d.repeats) {
      throw new TreeFileError(`game ${d.name} does not match its description ${JSON.stringify(d)}`);
    }
    if (game.size > MAX_CODES) {
      throw new TreeFileError(`game ${d.name} has ${game.size} codes; at most ${MAX_CODES} are supported`);
    }
    return game;
  }

  // ---------------------------------------------------------------------------------------------
  // Tree files: read and check (treegen/tree.py, treegen/verify.py)
  // ---------------------------------------------------------------------------------------------
  const ACCEPTED = 'a JSON object with "format": "treegen-tree", "version": 1, "game", "strategy", "stats" and "root"';
  const HINT_KEY = /^([0-9])A([0-9])B$/;
  const MARKS_KEY = /^[-YG]{1,5}$/;
  /** A canonical key's place in hint order: xAyB by bulls then cows, per-position marks by their base-3 value. */
  function keyRank(k) {
    if (HINT_KEY.test(k)) return Number(k[0]) * 10 + Number(k[2]);
    return [...k].reduce((h, ch, i) => h + MARKS.indexOf(ch) * 3 ** i, 0);
  }

  function isInt(v) { return typeof v === "number" && Number.isInteger(v); }

  function some(game, secrets) {
    const shown = Array.from(secrets.slice(0, 3), (s) => game.codeText(s)).join(" ");
    return shown + (secrets.length > 3 ? " ..." : "");
  }

  /**
   * Read and check a tree file's text. Returns {game, strategy, stats, provenance, root}; each node is
   * {guess, text, depth, secrets (the secrets that reach it), total (their guesses summed), max, kids:
   * [{hint, node}] in hint order, parent}. Throws TreeFileError with a one-line reason.
   */
  function readTree(text) {
    let obj;
    if (!String(text).trim()) throw new TreeFileError(`it is empty; a tree file is ${ACCEPTED}`);
    try {
      obj = JSON.parse(text);
    } catch (e) {
      throw new TreeFileError(`invalid JSON (${e.message}); a tree file is ${ACCEPTED}`);
    }
    if (!obj || typeof obj !== "object" || Array.isArray(obj) || !("format" in obj)) {
      throw new TreeFileError(`a tree file is ${ACCEPTED}`);
    }
    if (obj.format !== "treegen-tree") throw new TreeFileError(`its format is ${JSON.stringify(obj.format)}, not "treegen-tree"`);
    if (obj.version !== 1) throw new TreeFileError(`it has tree format version ${JSON.stringify(obj.version)}; this page reads version 1`);
    for (const key of ["game", "strategy", "stats", "root"]) {
      if (!(key in obj)) throw new TreeFileError(`it lacks "${key}"; a tree file is ${ACCEPTED}`);
    }
    const game = gameFromDict(obj.game);
    if (typeof obj.strategy !== "string") throw new TreeFileError(`"strategy" must be a string`);
    const st = obj.stats;
    if (!st || typeof st !== "object" || !isInt(st.secrets) || !isInt(st.total) || !isInt(st.max_guesses) ||
        !Array.isArray(st.histogram) || !st.histogram.every(isInt)) {
      throw new TreeFileError(`"stats" must be an object with integer secrets, total, max_guesses and a histogram list of integers`);
    }
    const provenance = obj.provenance;
    if (provenance !== undefined && (provenance === null || typeof provenance !== "object" || Array.isArray(provenance))) {
      throw new TreeFileError(`"provenance" must be an object`);
    }
    readNode(obj.root, []);
    const { root, histogram } = checkTree(game, obj.root);
    const total = histogram.reduce((a, h, k) => a + h * k, 0);
    const got = { secrets: game.secretCount, total, max_guesses: histogram.length - 1, histogram };
    for (const name of ["secrets", "total", "max_guesses", "histogram"]) {
      const want = JSON.stringify(got[name]), have = JSON.stringify(st[name]);
      if (want !== have) throw new TreeFileError(`at the root: stats: ${name} is ${have} in the file but the tree gives ${want}`);
    }
    return { game, strategy: obj.strategy, stats: got, provenance: provenance || {}, root };
  }

  /**
   * The structure of every node, before any secret is played (as tree.py's reader does): an object with
   * a string guess and an optional non-empty "next", no other keys, canonical hint keys in hint order.
   */
  function readNode(raw, path) {
    const where = path.length ? ` at ${path.join(" ")}` : " at the root";
    if (path.length > 128) throw new TreeFileError(`the tree is too deep to read`);
    if (!raw || typeof raw !== "object" || Array.isArray(raw) || typeof raw.guess !== "string") {
      throw new TreeFileError(`the node${where} is not an object {"guess": CODE, "next": {HINT: node, ...}}`);
    }
    const unknown = Object.keys(raw).filter((k) => k !== "guess" && k !== "next").sort();
    if (unknown.length) throw new TreeFileError(`the node${where} has unknown key '${unknown[0]}'; a node has only 'guess' and 'next'`);
    if (!("next" in raw)) return;
    const nxt = raw.next;
    if (!nxt || typeof nxt !== "object" || Array.isArray(nxt) || !Object.keys(nxt).length) {
      throw new TreeFileError(`'next'${where} must be a non-empty object mapping hints to nodes (leave it out after the last guess)`);
    }
    // JSON.parse keeps the keys in file order, except that keys such as "12" (array indices) come first;
    // hint keys (xAyB) are never such keys, so their order is the file's.
    const keys = Object.keys(nxt).filter((k) => HINT_KEY.test(k) || MARKS_KEY.test(k));
    const order = keys.slice().sort((x, y) => keyRank(x) - keyRank(y));
    const k = keys.findIndex((x, i) => x !== order[i]);
    if (k >= 0) {
      throw new TreeFileError(`'next' keys${where} are out of order: ${keys[k]} comes before ${order[k]}; write them by hint, bulls then cows (0A0B, 0A1B, ..., 1A0B, ...)`);
    }
    for (const key of Object.keys(nxt)) readNode(nxt[key], path.concat([raw.guess, key]));
  }

  /** Play every secret through the tree, as verify.check_root does; build the node objects. */
  function checkTree(game, rawRoot) {
    const histogram = [0];
    const win = game.winHint;
    const bad = (path, reason) => new TreeFileError(`${path.length ? "at " + path.join(" ") : "at the root"}: ${reason}`);

    function walk(raw, secrets, depth, path, parent) {
      if (!raw || typeof raw !== "object" || Array.isArray(raw) || typeof raw.guess !== "string") {
        throw bad(path, `the node is not an object {"guess": CODE, "next": {HINT: node, ...}}`);
      }
      if (depth > 64) throw bad(path, "the tree is too deep");
      const code = game.parseCode(raw.guess);
      if (code instanceof Error) throw bad(path, `guess ${JSON.stringify(raw.guess)} is not a legal code: ${code.message}`);
      if (game.codeText(code) !== raw.guess) throw bad(path, `guess ${JSON.stringify(raw.guess)} is not written canonically: write ${game.codeText(code)}`);
      const groups = new Map();
      for (const s of secrets) {
        const h = game.score(code, s);
        const g = groups.get(h);
        if (g) g.push(s); else groups.set(h, [s]);
      }
      const solved = groups.has(win);
      groups.delete(win);
      if (solved) {
        while (histogram.length <= depth) histogram.push(0);
        histogram[depth] += 1;
      }
      const node = { guess: code, text: raw.guess, depth, secrets: Int32Array.from(secrets), total: solved ? depth : 0,
                     max: solved ? depth : 0, kids: [], parent, hint: null };
      if ("next" in raw) {
        const nxt = raw.next;
        if (!nxt || typeof nxt !== "object" || Array.isArray(nxt) || !Object.keys(nxt).length) {
          throw bad(path, `'next' after ${raw.guess} must be a non-empty object mapping hints to nodes (leave it out after the last guess)`);
        }
        if (!groups.size) throw bad(path, `guess ${raw.guess} is the only secret left, so the node must have no 'next'`);
        const here = path.concat([raw.guess]);
        const branches = [];
        for (const key of Object.keys(nxt)) {
          const h = game.keyHint(key);
          if (h === null) {
            if (game.rule === "per-position") throw bad(here, `hint key ${JSON.stringify(key)} is not a canonical hint; hints are written a mark per position (G right, Y elsewhere, - absent), e.g. G-Y--`);
            if (!HINT_KEY.test(key)) throw bad(here, `hint key ${JSON.stringify(key)} is not a canonical hint; hints are written xAyB, e.g. 1A2B`);
            throw bad(here, `branch ${key} is a hint that cannot occur in ${game.name}`);
          }
          if (h === win) throw bad(here, `branch ${key} follows the all-bulls hint, which ends the game`);
          if (!groups.has(h)) {
            if (!game.possibleHints.has(h)) throw bad(here, `branch ${key} is a hint that cannot occur in ${game.name}`);
            throw bad(here, `dead branch ${key}: no secret gives ${key} here`);
          }
          branches.push([h, key]);
        }
        if (branches.length !== groups.size) {
          const have = new Set(branches.map((x) => x[0]));
          const h = Math.min(...[...groups.keys()].filter((x) => !have.has(x)));
          const n = groups.get(h).length;
          throw bad(here, `no branch for hint ${game.formatHint(h)}, which ${n} secret${n === 1 ? "" : "s"} give${n === 1 ? "s" : ""} (${some(game, groups.get(h))})`);
        }
        branches.sort((x, y) => x[0] - y[0]);
        for (const [h, key] of branches) {
          const kid = walk(nxt[key], groups.get(h), depth + 1, here.concat([key]), node);
          kid.hint = h;
          node.kids.push({ hint: h, node: kid });
          node.total += kid.total;
          node.max = Math.max(node.max, kid.max);
        }
      } else if (groups.size) {
        const h = Math.min(...groups.keys());
        const n = groups.get(h).length;
        throw bad(path.concat([raw.guess]), `no branch for hint ${game.formatHint(h)}, which ${n} secret${n === 1 ? "" : "s"} give${n === 1 ? "s" : ""} (${some(game, groups.get(h))})`);
      }
      return node;
    }

    const all = new Array(game.secretCount);
    for (let i = 0; i < game.secretCount; i++) all[i] = i;
    const root = walk(rawRoot, all, 1, [], null);
    return { root, histogram };
  }

  /** The (node, hint) steps the tree plays against `secret`, ending with the winning guess. */
  function treePath(tree, secret) {
    const steps = [];
    let node = tree.root;
    for (;;) {
      const h = tree.game.score(node.guess, secret);
      steps.push({ node, hint: h });
      if (h === tree.game.winHint) return steps;
      node = node.kids.find((k) => k.hint === h).node;
    }
  }

  function kidFor(node, hint) {
    const k = node.kids.find((x) => x.hint === hint);
    return k ? k.node : null;
  }

  // ---------------------------------------------------------------------------------------------
  // Small DOM helpers
  // ---------------------------------------------------------------------------------------------
  const $ = (sel) => document.querySelector(sel);

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  const fmt = (x) => Number(x).toLocaleString("en");
  const avg = (x) => Number(x).toFixed(4);
  const plural = (n, one, many) => `${fmt(n)} ${n === 1 ? one : many || one + "s"}`;

  // Colour letters of the pegs (style.css's .c0 ... .c9), accepted for codes of a peg game whose symbols
  // are digits: R G B Y P C for Mastermind's 1 2 3 4 5 6.
  const COLOURS = [["R", "red"], ["G", "green"], ["B", "blue"], ["Y", "yellow"], ["P", "purple"], ["C", "cyan"],
    ["O", "orange"], ["M", "magenta"], ["A", "grey"], ["N", "brown"]];

  function usesColours(game) { return game.notation === "pegs" && /^[0-9]+$/.test(game.alphabet); }
  function colourLetters(game) { return COLOURS.slice(0, game.symbols).map(([l, name]) => `${l} ${name}`).join(", "); }

  /** A guess typed as symbols or, in a peg game, as colour letters (RGBY...), or an Error. */
  function parseGuess(game, text) {
    let raw = String(text);
    if (usesColours(game) && /[A-Za-z]/.test(raw)) {
      const letters = COLOURS.slice(0, game.symbols).map(([l]) => l);
      let out = "";
      for (const ch of raw.replace(/\s+/g, "").toUpperCase()) {
        const k = letters.indexOf(ch);
        if (k < 0 && !game.alphabet.includes(ch)) {
          return new Error(`“${text}” uses ${ch}; codes use the symbols ${game.alphabet} or the colour letters ${letters.join("")} (${colourLetters(game)})`);
        }
        out += k < 0 ? ch : game.alphabet[k];
      }
      raw = out;
    }
    const code = game.parseCode(raw);
    if (code instanceof Error && usesColours(game)) return new Error(`${code.message}, or the colour letters ${colourLetters(game)}`);
    return code;
  }

  /** A code drawn as tiles; coloured pegs in Mastermind-like games. */
  function codeView(game, code, extra) {
    const text = typeof code === "number" ? game.codeText(code) : code;
    const pegs = game.notation === "pegs";
    const title = usesColours(game) ? `${text} (${Array.from(text, (ch) => COLOURS[game.alphabet.indexOf(ch)][1]).join(" ")})` : text;
    return el("span", { class: "code" + (pegs ? " colours" : "") + (extra ? " " + extra : ""), "data-code": text, title },
      Array.from(text, (ch) => el("span", { class: "sym" + (pegs ? " c" + game.alphabet.indexOf(ch) : "") }, ch)));
  }

  /** A hint drawn in the game's notation: 1A2B, black and white pegs, or ball/strike. */
  function hintView(game, h) {
    const [b, c] = game.splitHint(h);
    const canon = game.formatHint(h);
    if (game.rule === "jotto") return el("span", { class: "hint jotto", "data-hint": canon, title: canon }, game.formatNative(h));
    if (game.rule === "per-position") {
      const words = ["absent", "elsewhere", "right"];
      return el("span", { class: "hint marks", "data-hint": canon, title: `${game.marks(h).map((m, k) => `${k + 1} ${words[m]}`).join(", ")} (${canon})` },
        game.marks(h).map((m) => el("i", { class: "mark m" + m }, MARKS[m])));
    }
    if (game.notation === "pegs") {
      const pegs = [];
      for (let i = 0; i < b; i++) pegs.push(el("i", { class: "peg black" }));
      for (let i = 0; i < c; i++) pegs.push(el("i", { class: "peg white" }));
      if (!pegs.length) pegs.push(el("i", { class: "peg none" }));
      return el("span", { class: "hint pegs", "data-hint": canon, title: `${b} black, ${c} white (${canon})` },
        el("span", { class: "pegbox", style: `width:${game.positions * 12}px` }, pegs), el("span", { class: "native" }, game.formatNative(h)));
    }
    if (game.notation === "baseball") {
      return el("span", { class: "hint baseball", "data-hint": canon, title: `${b} strike${b === 1 ? "" : "s"}, ${b + c} ball${b + c === 1 ? "" : "s"} (${canon})` },
        el("b", {}, "ball "), `${b + c}`, el("b", {}, " strike "), `${b}`);
    }
    return el("span", { class: "hint ab", "data-hint": canon, title: `${b} bull${b === 1 ? "" : "s"}, ${c} cow${c === 1 ? "" : "s"}` },
      el("span", { class: "a" }, `${b}A`), el("span", { class: "b" }, `${c}B`));
  }

  function listCodes(game, secrets, limit) {
    const shown = Array.from(secrets.slice(0, limit), (s) => game.codeText(s));
    return shown.join(" ") + (secrets.length > limit ? " …" : "");
  }

  /** An SVG bar chart: secrets solved with 1, 2, ... guesses; `mark` highlights one bar. */
  function histogramSvg(hist, mark) {
    const NS = "http://www.w3.org/2000/svg";
    const s = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const bars = hist.slice(1);
    const W = 560, H = 210, left = 14, right = 14, top = 26, bottom = 44;
    const top1 = Math.max(...bars, 1);
    const bw = (W - left - right) / bars.length;
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "histogram", role: "img",
      "aria-label": "secrets solved with each number of guesses: " + bars.map((n, i) => `${i + 1}: ${n}`).join(", ") });
    svg.append(s("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "axis" }));
    bars.forEach((n, i) => {
      const h = n ? Math.max(2, (H - top - bottom) * n / top1) : 0;
      const x = left + i * bw + bw * 0.14, w = bw * 0.72, y = H - bottom - h;
      const g = s("g", { class: "bar" + (mark === i + 1 ? " mark" : ""), "data-guesses": i + 1 });
      g.append(s("title", {}, `${fmt(n)} secret${n === 1 ? "" : "s"} solved with ${i + 1} guess${i ? "es" : ""}`));
      g.append(s("rect", { x, y, width: w, height: h, rx: 3 }));
      g.append(s("text", { x: x + w / 2, y: y - 6, class: "count" }, fmt(n)));
      g.append(s("text", { x: x + w / 2, y: H - bottom + 17, class: "label" }, String(i + 1)));
      svg.append(g);
    });
    svg.append(s("text", { x: W / 2, y: H - 6, class: "caption" }, "guesses needed (the winning guess counts)"));
    return svg;
  }

  function objectiveText(entry) {
    const o = entry.objective, cap = entry.cap;
    const hard = entry.hard ? ", hard mode" : "";
    if (o === "worst") return "least worst case" + hard;
    if (o === "crush") return `fewest at ${cap} guesses (${entry.at_worst})` + hard;
    if (o === "average") return (cap ? `least total, ≤ ${cap} guesses` : "least total") + hard;
    return entry.strategy || "";
  }

  // ---------------------------------------------------------------------------------------------
  // The page
  // ---------------------------------------------------------------------------------------------
  let TREE = null; // the tree in use: readTree's result plus {source}
  let LISTED = []; // the server's listing of trees (empty from disk)
  let HAS_OPENINGS = false; // whether the server's folder has trees/openings.json

  function showLoadError(source, message) {
    const box = $("#load-error");
    box.replaceChildren(el("strong", {}, `${source} is not a valid tree file. `), message);
    box.hidden = false;
  }

  function setStatus(text) { $("#load-status").textContent = text; }

  function useTreeText(text, source, shipped) {
    const t0 = performance.now();
    let tree;
    try {
      tree = readTree(text);
    } catch (e) {
      if (!(e instanceof TreeFileError)) {
        console.error(e);
        showLoadError(source, `It could not be read: ${e.message}`);
      } else {
        showLoadError(source, e.message.charAt(0).toUpperCase() + e.message.slice(1) + ".");
      }
      setStatus(TREE ? `Still using ${TREE.source}.` : "");
      return false;
    }
    tree.source = source;
    tree.checkMs = performance.now() - t0;
    TREE = tree;
    $("#load-error").hidden = true;
    setStatus("");
    document.querySelectorAll("#shipped tr.active").forEach((r) => r.classList.remove("active"));
    const row = shipped && document.querySelector(`#shipped tr[data-file="${CSS.escape(source)}"]`);
    if (row) row.classList.add("active");
    renderSummary();
    guesser.start();
    host.start();
    explorer.start();
    comparer.start();
    openings.start();
    $("#workspace").hidden = false;
    document.body.dataset.loaded = source;
    return true;
  }

  async function loadShipped(file) {
    setStatus(`Loading ${file}…`);
    try {
      const res = await fetch("trees/" + encodeURIComponent(file), { cache: "no-store" });
      if (!res.ok) throw new Error(`the server answered ${res.status} ${res.statusText}`);
      return useTreeText(await res.text(), file, true);
    } catch (e) {
      showLoadError(file, `It could not be fetched: ${e.message}.`);
      setStatus("");
      return false;
    }
  }

  function loadFile(file) {
    if (!file) return;
    setStatus(`Reading ${file.name}…`);
    const reader = new FileReader();
    reader.onload = () => useTreeText(reader.result, file.name);
    reader.onerror = () => { showLoadError(file.name, "It could not be read."); setStatus(""); };
    reader.readAsText(file);
  }

  async function loadListing() {
    const box = $("#shipped");
    if (location.protocol === "file:") {
      box.replaceChildren(el("p", { class: "muted" }, "This page was opened from disk: choose a tree file below (for example one of treegen's trees/ folder). ",
        el("code", {}, "treegen serve"), " lists a folder of trees here."));
      return;
    }
    let data;
    try {
      const res = await fetch("api/trees", { cache: "no-store" });
      if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
      data = await res.json();
    } catch (e) {
      box.replaceChildren(el("p", { class: "muted" }, `No list of trees from the server (${e.message}); choose a tree file below.`));
      return;
    }
    if (!data.trees.length) {
      box.replaceChildren(el("p", { class: "muted" }, `No tree files (*.json) in ${data.folder}; choose a file below, or start treegen serve with --trees DIR.`));
      return;
    }
    LISTED = data.trees.filter((t) => !t.error);
    HAS_OPENINGS = data.openings === true;
    const rows = data.trees.map((t) => t.error
      ? el("tr", { class: "broken", "data-file": t.file }, el("td", {}, t.file), el("td", { colspan: 5, class: "muted" }, t.error))
      : el("tr", { "data-file": t.file, title: `play with ${t.file}`, onclick: () => pickTree(t.file) },
        el("td", {}, el("button", { type: "button", class: "pick",
          "aria-label": `Play with ${t.game}, ${objectiveText(t)}: total ${t.total}, average ${avg(t.average)}, at most ${t.max} guesses (file ${t.file})` },
        el("span", { class: "game-name" }, t.game), " ", el("span", { class: "file-name" }, t.file))),
        el("td", {}, objectiveText(t)),
        el("td", { class: "num col-total" }, fmt(t.total)),
        el("td", { class: "num" }, avg(t.average)),
        el("td", { class: "num" }, t.max)));
    box.replaceChildren(el("div", { class: "scroll" }, el("table", { class: "trees" },
      el("thead", {}, el("tr", {}, el("th", {}, "game"), el("th", {}, "objective"), el("th", { class: "num col-total" }, "total"),
        el("th", { class: "num" }, "average"), el("th", { class: "num" }, "max"))),
      el("tbody", {}, rows))));
    const want = new URLSearchParams(location.hash.slice(1)).get("tree");
    if (want && data.trees.some((t) => t.file === want && !t.error)) loadShipped(want);
  }

  /** Whether a game is under way in either role (a tree picked now would end it). */
  function inProgress() {
    if (!TREE) return false;
    return (guesser.history.length > 0 && !guesser.done) || (host.history.length > 0 && !host.done);
  }

  /** A tree picked from the list: ask before ending a game under way, load it, show it, keep the link. */
  async function pickTree(file) {
    if (inProgress() && !window.confirm(`Start again with ${file}? The game under way will be lost.`)) return;
    history.replaceState(null, "", `#tree=${encodeURIComponent(file)}`);
    if (await loadShipped(file)) {
      $("#workspace").scrollIntoView({ block: "start" });
      $("#sum-title").focus({ preventScroll: true });
    }
  }

  function renderSummary() {
    const { game, stats, strategy, provenance } = TREE;
    $("#sum-title").replaceChildren(game.name, el("span", { class: "strategy" }, strategy));
    $("#sum-game").textContent = game.describe();
    const facts = [
      ["average", avg(stats.total / stats.secrets)],
      ["total", fmt(stats.total)],
      ["max", String(stats.max_guesses)],
      ["first guess", TREE.root.text],
    ];
    $("#sum-facts").replaceChildren(...facts.map(([k, v]) => el("div", { class: "fact" }, el("span", { class: "v" }, v), el("span", { class: "k" }, k))));
    const proof = [];
    if (provenance.objective === "average" && provenance.optimal_total === stats.total) {
      proof.push(`Proved optimal: least total${provenance.max_guesses ? ` within ${provenance.max_guesses} guesses` : ""}.`);
    } else if (provenance.objective === "worst" && provenance.worst_case) {
      proof.push(`Proved optimal: every secret within ${provenance.worst_case} guesses (${provenance.impossible_within} is impossible), then least total.`);
    } else if (provenance.objective === "crush" && provenance.worst_case) {
      proof.push(`Proved optimal: every secret within ${provenance.worst_case} guesses (${provenance.impossible_within} is impossible), then the fewest secrets that need ${provenance.worst_case} (${provenance.at_worst}), then least total.`);
    }
    if (provenance.consistent_only === true) proof.push("Hard mode: every guess is a secret still possible.");
    proof.push(`Checked here: all ${fmt(stats.secrets)} secrets replayed through the tree, and the figures match the file (${TREE.checkMs.toFixed(0)} ms).`);
    $("#sum-proof").textContent = proof.join(" ");
    $("#sum-source").textContent = TREE.source;
    drawHistogram(null);
  }

  function drawHistogram(mark) {
    $("#histogram").replaceChildren(histogramSvg(TREE.stats.histogram, mark));
  }

  // -- tabs ----------------------------------------------------------------------------------------
  /** Show one panel; the tabs keep one tab stop (the selected tab) and move with the arrow keys. */
  function selectTab(name, focus) {
    document.querySelectorAll("#tabs button").forEach((b) => {
      const on = b.dataset.tab === name;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    });
    document.querySelectorAll(".panel").forEach((p) => { p.hidden = p.id !== name; });
    if (name === "host" && TREE && SERVED && TREE.warmed !== true) {
      // The coach loads the search on its first question: ask one now, so that the first move is scored fast.
      TREE.warmed = true;
      serverAnalysis(TREE.game, []).catch(() => {});
    }
  }

  function tabKeys(ev) {
    const tabs = [...document.querySelectorAll("#tabs button")];
    const k = tabs.indexOf(document.activeElement);
    if (k < 0) return;
    const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: tabs.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    selectTab(tabs[(to + tabs.length) % tabs.length].dataset.tab, true);
  }

  // -- the computer guesses your secret ---------------------------------------------------------
  const guesser = {
    start() {
      const game = TREE.game;
      this.node = TREE.root;
      this.history = []; // {node, hint}
      this.done = false;
      this.pick = [null, null];
      const names = {
        ab: ["Bulls", "right symbol, right place", "Cows", "right symbol, wrong place"],
        pegs: ["Black pegs", "right colour, right place", "White pegs", "right colour, wrong place"],
        baseball: ["Strikes", "right digit, right place", "Balls", "right digit anywhere: strikes count too"],
      }[game.notation];
      $("#g-intro").textContent = `Think of a secret: ${game.describe().replace(/, [\d,]+ secrets$/, "")}. ` +
        `I will find it within ${plural(TREE.stats.max_guesses, "guess", "guesses")}. Score each of my guesses with the buttons.`;
      const row = (which, label, help) => el("div", { class: "count-row" },
        el("div", { class: "count-label" }, el("strong", {}, label), el("span", { class: "muted" }, help)),
        el("div", { class: "count-buttons", role: "group", "aria-label": label },
          Array.from({ length: game.positions + 1 }, (_, v) => el("button", {
            type: "button", class: "count", "data-row": which, "data-value": v, "aria-pressed": "false",
            onclick: () => this.choose(which, v),
          }, String(v)))));
      // In the order the game writes its hint: ball=B strike=S puts balls first. Black pegs alone: one row.
      // Jotto: the letters in common, and a button for the word itself.
      let rows = [row(0, names[0], names[1]), row(1, names[2], names[3])];
      if (game.notation === "baseball") rows.reverse();
      if (game.rule === "black-pegs") rows = [row(0, "Black pegs", "right symbol, right place")];
      if (game.rule === "per-position") rows = this.markRows(); // rebuilt for each guess (render)
      if (game.rule === "jotto") {
        rows = [row(1, "Letters in common", "letters both words have, wherever they are"),
          el("div", { class: "count-row" }, el("div", { class: "count-label" }, el("strong", {}, "Or"), el("span", { class: "muted" }, "the guess is your word")),
            el("div", {}, el("button", { type: "button", class: "count found", "data-row": 0, "data-value": game.positions, "aria-pressed": "false",
              onclick: () => this.choose(0, game.positions) }, "That is my word")))];
      }
      $("#g-answer").replaceChildren(...rows);
      this.render();
    },

    /** Per position: a row per letter of the current guess, absent, elsewhere or right (pick k holds mark k). */
    markRows() {
      const game = TREE.game, guess = game.codeText(this.node.guess), names = ["absent", "elsewhere", "right"];
      return Array.from({ length: game.positions }, (_, k) => el("div", { class: "count-row" },
        el("div", { class: "count-label" }, el("strong", {}, `${k + 1}: ${guess[k]}`),
          el("span", { class: "muted" }, k ? "" : "absent, elsewhere in the word, or right")),
        el("div", { class: "count-buttons", role: "group", "aria-label": `letter ${k + 1}, ${guess[k]}` },
          [0, 1, 2].map((m) => el("button", {
            type: "button", class: "count mark m" + m, "data-row": k, "data-value": m, "aria-pressed": "false",
            "aria-label": names[m], onclick: () => this.choose(k, m),
          }, MARKS[m])))));
    },

    choose(which, v) {
      this.pick[which] = v;
      const rule = TREE.game.rule;
      if (rule === "per-position") {
        document.querySelectorAll(`#g-answer .count[data-row="${which}"]`).forEach((b) =>
          b.setAttribute("aria-pressed", String(Number(b.dataset.value) === v)));
        this.preview();
        return;
      }
      if (rule === "black-pegs" && which === 0) this.pick[1] = 0;
      if (rule === "jotto" && which === 1) this.pick[0] = null;
      if (rule !== "bulls-cows") {
        document.querySelectorAll("#g-answer .count").forEach((b) =>
          b.setAttribute("aria-pressed", String(Number(b.dataset.row) === which && Number(b.dataset.value) === v)));
        this.preview();
        return;
      }
      if (which === 0 && v === TREE.game.positions) {
        // all in place: the other count is forced (no cows, or as many balls as strikes)
        this.pick[1] = TREE.game.notation === "baseball" ? v : 0;
        this.choose(1, this.pick[1]);
        return;
      }
      document.querySelectorAll(`#g-answer .count[data-row="${which}"]`).forEach((b) =>
        b.setAttribute("aria-pressed", String(Number(b.dataset.value) === v)));
      this.preview();
    },

    /** The chosen answer as (bulls, cows), or an Error saying why it cannot be a hint. */
    chosenHint() {
      const game = TREE.game, [first, second] = this.pick;
      if (game.rule === "per-position") {
        if (this.pick.includes(null)) return null;
        const h = this.pick.reduce((a, m, k) => a + m * 3 ** k, 0);
        if (!game.possibleHints.has(h)) return new Error("when every other letter is right, the last one cannot be elsewhere in the word");
        return h;
      }
      if (game.rule === "jotto") {
        if (first === game.positions) return game.winHint;
        if (second === null) return null;
        return game.hint(0, second);
      }
      if (first === null || second === null) return null;
      let bulls = first, cows = second;
      if (game.notation === "baseball") {
        if (first > second) return new Error(`${plural(first, "strike")} but only ${plural(second, "ball")}: ball counts the strikes too, so balls ≥ strikes`);
        cows = second - first;
      }
      if (bulls + cows > game.positions) {
        return new Error(`${game.formatHint(game.hint(bulls, cows))} counts ${bulls + cows} symbols, but codes have only ${game.positions}`);
      }
      const h = game.hint(bulls, cows);
      if (!game.possibleHints.has(h)) {
        const why = bulls === game.positions - 1 && cows === 1
          ? `if ${bulls} are in the right place, the last one cannot be right but misplaced`
          : "no guess and secret give it";
        return new Error(`${game.showHint(h)} cannot occur in ${game.name}: ${why}`);
      }
      return h;
    },

    preview() {
      const h = this.chosenHint();
      const box = $("#g-preview");
      box.replaceChildren();
      if (h === null) return;
      if (h instanceof Error) box.append(el("span", { class: "muted" }, "not a possible answer"));
      else box.append("answer: ", hintView(TREE.game, h));
    },

    answer() {
      const game = TREE.game, msg = $("#g-message");
      msg.hidden = true;
      this.rewind = null;
      if (this.done) return;
      const h = this.chosenHint();
      if (h === null) {
        return this.refuse(game.rule === "per-position" ? "Mark every letter first: absent, elsewhere in the word, or right."
          : "Choose both numbers first: how many are right and in place, and how many are right but misplaced.");
      }
      if (h instanceof Error) return this.refuse(`Not possible: ${h.message}.`);
      const g = this.node.guess;
      const left = Array.prototype.filter.call(this.node.secrets, (s) => game.score(g, s) === h);
      if (left.length && h === game.winHint) {
        this.history.push({ node: this.node, hint: h });
        this.done = true;
        this.render();
        $("#g-done").focus();
        return;
      }
      if (!left.length) return this.inconsistent(h);
      const kid = kidFor(this.node, h); // a checked tree has a branch for every hint a remaining secret gives
      this.history.push({ node: this.node, hint: h });
      this.node = kid;
      this.render();
    },

    refuse(text, ...extra) {
      const msg = $("#g-message");
      msg.replaceChildren(text, ...extra);
      msg.hidden = false;
      this.rewind = null;
    },

    /**
     * Answer `h` contradicts the earlier ones. The earlier answers agreed with some secret, so this one
     * alone may be wrong; an earlier answer is a culprit too if, without it, the rest (this one included)
     * agree with some secret. Undo then goes back to before the latest such answer.
     */
    inconsistent(h) {
      const game = TREE.game;
      const said = this.history.map((x) => ({ guess: x.node.guess, text: x.node.text, hint: x.hint }))
        .concat([{ guess: this.node.guess, text: this.node.text, hint: h }]);
      const fits = (skip) => {
        for (let s = 0; s < game.secretCount; s++) {
          if (said.every((x, i) => i === skip || game.score(x.guess, s) === x.hint)) return true;
        }
        return false;
      };
      const culprits = said.slice(0, -1).map((_, i) => i).filter((i) => fits(i));
      const name = (i) => `guess ${i + 1} (${said[i].text} → ${game.showHint(said[i].hint)})`;
      const text = `That cannot be right: no ${game.name} secret gives all of these answers: ${said.map((x) => `${x.text} → ${game.showHint(x.hint)}`).join(", ")}. `;
      if (!culprits.length) {
        return this.refuse(text + `Check your answer for ${this.node.text}: without it the others agree.`);
      }
      const last = culprits[culprits.length - 1];
      this.refuse(text + `Either this answer is wrong or ${culprits.length === 1 ? "this earlier one" : "one of these earlier ones"}: ` +
        culprits.map(name).join(", ") + ` (without ${culprits.length === 1 ? "it" : "any one of them"} the rest agree). Undo goes back to before guess ${last + 1}. `,
        ...culprits.map((i) => el("button", { type: "button", class: "rewind", "data-to": i, onclick: () => this.back(i) }, `Back to guess ${i + 1}`)));
      this.rewind = last;
    },

    /** Go back to before guess `i` (its answer taken back, and every later one). */
    back(i) {
      $("#g-message").hidden = true;
      this.rewind = null;
      if (i >= this.history.length) return;
      this.node = this.history[i].node;
      this.history.length = i;
      this.done = false;
      this.render();
      $("#g-submit").focus();
    },

    undo() {
      if (this.rewind !== null && this.rewind !== undefined) return this.back(this.rewind);
      $("#g-message").hidden = true;
      if (!this.history.length) return;
      const last = this.history.pop();
      this.node = last.node;
      this.done = false;
      this.render();
    },

    render() {
      const game = TREE.game;
      this.pick = [null, null];
      if (game.rule === "per-position") {
        this.pick = new Array(game.positions).fill(null);
        if (!this.done) $("#g-answer").replaceChildren(...this.markRows());
      }
      document.querySelectorAll("#g-answer .count").forEach((b) => b.setAttribute("aria-pressed", "false"));
      $("#g-preview").replaceChildren();
      $("#g-history").replaceChildren(...this.history.map((x, i) => el("li", {},
        el("span", { class: "n" }, String(i + 1)), codeView(game, x.node.guess), hintView(game, x.hint),
        x.hint === game.winHint ? el("span", { class: "left" }, "found") :
          el("span", { class: "left" }, plural(this.history[i + 1] ? this.history[i + 1].node.secrets.length : this.node.secrets.length, "secret") + " left"))));
      const n = this.history.length;
      $("#g-current").hidden = this.done;
      $("#g-done").hidden = !this.done;
      if (this.done) {
        const secret = this.history[n - 1].node.text;
        $("#g-done").replaceChildren(el("div", { class: "big" }, "Found it: ", codeView(game, secret)),
          el("p", {}, `Your secret ${secret} took ${plural(n, "guess", "guesses")}; this tree needs ${avg(TREE.stats.total / TREE.stats.secrets)} on average and never more than ${TREE.stats.max_guesses}.`),
          el("p", { class: "actions" }, el("button", { type: "button", class: "primary", onclick: () => { $("#g-message").hidden = true; this.start(); } }, "Play again"),
            el("button", { type: "button", id: "g-undo-found", onclick: () => { this.undo(); $("#g-submit").focus(); } }, `Undo: ${secret} was not it`)));
        $("#g-remaining").replaceChildren();
        return;
      }
      $("#g-guess-label").textContent = `Guess ${n + 1}`;
      $("#g-guess").replaceChildren(codeView(game, this.node.guess, "large"));
      const left = this.node.secrets;
      $("#g-remaining").replaceChildren(el("strong", { id: "g-count" }, plural(left.length, "secret")),
        left.length === 1 ? " is still possible: " : " still possible: ",
        el("span", { class: "codes" }, listCodes(game, left, 16)));
    },
  };

  // -- the coach: exact values of moves (treegen/analysis.py) --------------------------------------
  // Served by `treegen serve`, the page asks /api/analyze; opened from disk it uses the tree itself,
  // found by relabelling (a permutation of positions and one of symbols maps a history onto the tree's
  // when its guesses map onto the tree's guesses: hints are unchanged by such a map).

  function gcd(a, b) { a = Math.abs(a); b = Math.abs(b); while (b) [a, b] = [b, a % b]; return a || 1; }
  function fraction(num, den) {
    const g = gcd(num, den);
    return den / g === 1 ? String(num / g) : `${num / g}/${den / g}`;
  }

  function* permutations(n) {
    const a = Array.from({ length: n }, (_, i) => i);
    const c = new Array(n).fill(0);
    yield a.slice();
    let i = 0;
    while (i < n) {
      if (c[i] < i) {
        const j = i % 2 ? c[i] : 0;
        [a[j], a[i]] = [a[i], a[j]];
        yield a.slice();
        c[i]++;
        i = 0;
      } else {
        c[i] = 0;
        i++;
      }
    }
  }

  /** The relabelling `map` ({perm, sym}) extended to take code `g` to code `t`, or null (analysis.Relabelling.extend). */
  function extendMap(game, map, g, t) {
    const P = game.positions, c = game.codes, sym = map.sym.slice();
    for (let p = 0; p < P; p++) {
      const a = c[g * P + p], b = c[t * P + map.perm[p]];
      if (sym[a] === -1) {
        if (sym.includes(b)) return null;
        sym[a] = b;
      } else if (sym[a] !== b) return null;
    }
    return { perm: map.perm, sym };
  }

  /** A code that `map` (extended) takes to code `t`: the player's labels for the tree's guess. */
  function inverseCode(game, map, t) {
    const P = game.positions, c = game.codes, inv = new Map();
    map.sym.forEach((b, a) => { if (b !== -1) inv.set(b, a); });
    const free = map.sym.map((b, a) => (b === -1 ? a : -1)).filter((a) => a >= 0);
    let text = "";
    for (let p = 0; p < P; p++) {
      const b = c[t * P + map.perm[p]];
      if (!inv.has(b)) inv.set(b, free.shift());
      text += game.alphabet[inv.get(b)];
    }
    return game.index.get(text);
  }

  /** The tree node the history ({guess, hint} list) reaches under some relabelling, with every such map; or null. */
  function locate(tree, history) {
    const game = tree.game;
    if (game.positions > 7) return null; // 8! maps per lookup: too slow to try
    const maps = [];
    let at = null;
    // A list game has no symmetry: the identity is its only relabelling.
    const perms = game.words ? [Array.from({ length: game.positions }, (_, i) => i)] : permutations(game.positions);
    for (const perm of perms) {
      let map = { perm, sym: game.words ? Array.from({ length: game.symbols }, (_, i) => i) : new Array(game.symbols).fill(-1) }, node = tree.root;
      for (const x of history) {
        map = extendMap(game, map, x.guess, node.guess);
        if (!map) break;
        node = kidFor(node, x.hint);
        if (!node) { map = null; break; }
      }
      if (map) { maps.push(map); at = node; }
    }
    return at ? { node: at, maps } : null;
  }

  /** Whether the tree is a proved least total (no cap, not hard mode): its subtrees' totals are the optimum. */
  function leastTotal(tree) {
    const p = tree.provenance;
    return p.objective === "average" && !p.max_guesses && p.consistent_only !== true && p.optimal_total === tree.stats.total;
  }

  /** The least total of a node's set from the node on (its guesses counted from 1 there). */
  function nodeTotal(node) { return node.total - (node.depth - 1) * node.secrets.length; }

  function valueObj(total, secrets, source, guess) {
    return { secrets, exact: true, source, expected: total / secrets, total, fraction: fraction(total, secrets), guess };
  }

  /**
   * The analysis the tree alone gives (the page opened from disk, or the server unreachable), shaped as
   * /api/analyze's; a move the tree cannot value is {unscored: reason}.
   */
  function localAnalysis(tree, history) {
    const game = tree.game, least = leastTotal(tree);
    const why = least ? "the tree does not cover this position; open the page through treegen serve to score it"
      : "this tree is not a proved least total; open a least-total tree, or the page through treegen serve";
    const moves = [];
    let alive = null;
    const valueAt = (k) => {
      if (!least) return null;
      const found = locate(tree, history.slice(0, k));
      return found ? { found, total: nodeTotal(found.node) } : null;
    };
    let here = valueAt(0);
    for (let k = 0; k < history.length; k++) {
      const x = history[k];
      const before = k ? history[k - 1].left : game.secretCount;
      const next = x.hint === game.winHint ? null : valueAt(k + 1);
      if (!here) { moves.push({ unscored: why }); here = next; continue; }
      const best = valueObj(here.total, before, "tree", game.codeText(inverseCode(game, here.found.maps[0], here.found.node.guess)));
      const same = here.found.maps.some((m) => extendMap(game, m, x.guess, here.found.node.guess));
      if (!same) { moves.push({ unscored: why, best }); here = next; continue; }
      const move = { guess: game.codeText(x.guess), hint: game.formatHint(x.hint), before, after: x.left,
        value: valueObj(here.total, before, "tree"), best, optimal: true,
        loss: { exact: true, expected: 0, fraction: "0" }, luck: null };
      if (x.hint === game.winHint) move.luck = { expected: here.total / before - 1, fraction: fraction(here.total - before, before) };
      else if (next) {
        const num = here.total * x.left - before * (x.left + next.total), den = before * x.left;
        move.luck = { expected: num / den, fraction: fraction(num, den) };
      }
      moves.push(move);
      here = next;
    }
    return { moves, local: true, position: here ? valueObj(here.total, history.length ? history[history.length - 1].left : game.secretCount, "tree",
      game.codeText(inverseCode(game, here.found.maps[0], here.found.node.guess))) : null };
  }

  /** "GUESS=HINT,..." of a history, for the server's query. */
  function movesQuery(game, history) {
    return history.map((x) => `${game.codeText(x.guess)}=${game.formatHint(x.hint)}`).join(",");
  }

  const SERVED = location.protocol === "http:" || location.protocol === "https:";

  async function serverAnalysis(game, history) {
    const res = await fetch(`api/analyze?game=${encodeURIComponent(game.name)}&moves=${encodeURIComponent(movesQuery(game, history))}`, { cache: "no-store" });
    if (!res.ok) throw new Error((await res.text()).trim() || `${res.status} ${res.statusText}`);
    return res.json();
  }

  /** The loss of a move as the history table shows it. */
  function lossText(m) {
    if (!m || m.unscored) return "not scored";
    const l = m.loss;
    if (l.exact) return l.expected === 0 ? "optimal" : `−${l.expected.toFixed(2)}`;
    return `−${l.at_least.toFixed(2)} or worse`;
  }

  /** A heuristic guess for a set: the one (of the set, or its first 400) leaving the fewest secrets expected. */
  function heuristicGuess(game, alive) {
    const pool = alive.length > 400 ? alive.slice(0, 400) : alive;
    let best = alive[0], bestScore = Infinity;
    const counts = new Map();
    for (const g of pool) {
      counts.clear();
      for (const s of alive) { const h = game.score(g, s); counts.set(h, (counts.get(h) || 0) + 1); }
      let score = 0;
      for (const [h, n] of counts) if (h !== game.winHint) score += n * n;
      if (score < bestScore) { bestScore = score; best = g; }
    }
    return best;
  }

  // -- you guess the computer's secret ------------------------------------------------------------
  const host = {
    start() {
      const game = TREE.game;
      const r = new Uint32Array(1);
      crypto.getRandomValues(r);
      this.evil = $("#h-evil").checked;
      this.secret = this.evil ? null : r[0] % game.secretCount;
      this.history = []; // {guess, hint, left, couldBe}
      this.alive = null;
      this.done = false;
      this.gaveUp = false;
      this.analysis = null;
      // Answers the server gives later (scores, advice, the evil host's hints) belong to the game and the
      // moves they were asked for: `seq` counts every question of every game, and a stale answer is dropped.
      this.seq = (this.seq || 0) + 1;
      this.busy = false;
      this.say("");
      const rules = game.rule === "per-position" ? { ab: "a mark per letter: G right, Y elsewhere in the word, - absent" }
        : game.rule === "jotto" ? { ab: "the number of letters in common" } : { ab: "xAyB, x bulls (right place) and y cows (right symbol, wrong place)",
        pegs: "a black peg for each right colour in the right place, a white one for each right colour in the wrong place",
        baseball: "strikes are right digits in the right place; balls are right digits anywhere (strikes count too)" }[game.notation];
      $("#h-intro").textContent = (this.evil
        ? `The evil host holds no secret: it answers each guess so as to keep you guessing longest, while every answer stays true of some secret (${game.describe().replace(/, [\d,]+ secrets$/, "")}). `
        : `I have picked a secret: ${game.describe().replace(/, [\d,]+ secrets$/, "")}. `) +
        `Type your guesses${game.notation === "pegs" ? ` (digits ${game.alphabet}, or colour letters ${colourLetters(game)})` : ""}. Hints: ${rules}.` +
        " Each move is scored against the best move: the expected guesses it loses.";
      $("#h-input").value = "";
      $("#h-input").placeholder = `e.g. ${game.codeText(0)}`;
      $("#h-input").maxLength = game.positions + 8;
      this.render();
    },

    aliveNow() {
      if (!this.alive) {
        this.alive = [];
        for (let i = 0; i < TREE.game.secretCount; i++) this.alive.push(i);
      }
      return this.alive;
    },

    async guess(text) {
      const game = TREE.game;
      this.say("");
      if (this.done || this.busy) return;
      const code = parseGuess(game, text);
      if (code instanceof Error) return this.say(code.message + ".", true);
      const alive = this.aliveNow();
      const couldBe = alive.includes(code);
      let h;
      if (this.evil) {
        this.busy = true;
        const seq = ++this.seq;
        try {
          h = await this.evilHint(code);
        } finally {
          this.busy = false;
        }
        if (seq !== this.seq) return; // a new game started while the host was thinking
      } else h = game.score(code, this.secret);
      this.alive = alive.filter((s) => game.score(code, s) === h);
      this.history.push({ guess: code, hint: h, left: this.alive.length, couldBe });
      if (h === game.winHint) { this.done = true; this.secret = code; }
      $("#h-input").value = "";
      this.render();
      this.score();
      if (this.done) $("#h-done").focus();
    },

    /** The evil host's answer: the server's exact host, else the hint of the largest class (labelled). */
    async evilHint(code) {
      const game = TREE.game;
      if (SERVED) {
        try {
          const q = `game=${encodeURIComponent(game.name)}&moves=${encodeURIComponent(movesQuery(game, this.history))}&guess=${encodeURIComponent(game.codeText(code))}`;
          const res = await fetch(`api/evil?${q}`, { cache: "no-store" });
          if (res.ok) {
            const reply = await res.json();
            this.evilNote = reply.exact ? "" : "(the host answered with the largest class: its classes are too large to search)";
            return game.keyHint(reply.hint);
          }
        } catch (e) { /* fall through to the largest class */ }
      }
      const counts = new Map();
      for (const s of this.aliveNow()) { const h = game.score(code, s); counts.set(h, (counts.get(h) || 0) + 1); }
      let best = null;
      for (const [h, n] of counts) {
        const w = h === game.winHint ? -1 : n;
        if (best === null || w > best[1] || (w === best[1] && h < best[0])) best = [h, w];
      }
      this.evilNote = "(without the server the host answers with the largest class, not the exact longest game)";
      return best[0];
    },

    /** Score every move so far: the server's exact analysis when served, else what the tree gives. */
    async score() {
      const game = TREE.game, history = this.history.slice(), seq = ++this.seq;
      this.analysis = localAnalysis(TREE, history);
      this.render();
      if (!SERVED || !history.length) return;
      this.scoring = true;
      try {
        const got = await serverAnalysis(game, history);
        if (seq !== this.seq) return;
        this.analysis = got;
      } catch (e) {
        if (seq !== this.seq) return;
        this.analysis.error = `The server could not score the moves (${e.message}); scores here come from the tree alone.`;
      } finally {
        if (seq === this.seq) this.scoring = false;
      }
      this.render();
    },

    /** The tree's node after the history so far, or an explanation of why the game left the tree. */
    treeNode() {
      const game = TREE.game;
      let node = TREE.root;
      for (let i = 0; i < this.history.length; i++) {
        const x = this.history[i];
        if (x.guess !== node.guess) {
          return `You left the tree's path at guess ${i + 1}: it plays ${node.text} there, you played ${game.codeText(x.guess)}.`;
        }
        node = kidFor(node, x.hint);
      }
      return node;
    },

    /** Advice that never stops: the tree's move, on its path or found by relabelling; the server's exact move; a heuristic. */
    async advise() {
      const game = TREE.game;
      if (this.done) return;
      const node = this.treeNode();
      const offer = (code, text) => { this.say(text); $("#h-input").value = game.codeText(code); $("#h-input").focus(); };
      if (typeof node !== "string") {
        const left = node.secrets.length;
        return offer(node.guess, `The tree plays ${node.text} here` + (left > 1 ? `: from here it needs ${avg(node.total / left - (node.depth - 1))} more guesses on average, at most ${node.max - node.depth + 1}.` : ": it is the only secret left."));
      }
      const found = locate(TREE, this.history);
      if (found) {
        const code = inverseCode(game, found.maps[0], found.node.guess), left = found.node.secrets.length;
        return offer(code, `${node} But this position is the tree's own under a relabelling of positions and symbols: the tree's move, relabelled, is ${game.codeText(code)}` +
          (left > 1 ? ` (${avg(nodeTotal(found.node) / left)} more guesses on average).` : "."));
      }
      const alive = this.aliveNow();
      if (SERVED) {
        this.say(`${node} Asking the server for the best move…`);
        const seq = ++this.seq;
        try {
          const got = await serverAnalysis(game, this.history);
          if (seq !== this.seq) return; // the game moved on meanwhile
          const pos = got.position;
          if (pos && pos.guess) {
            return offer(game.parseCode(pos.guess), `${node} The best move here, by exact search, is ${pos.guess}: ` +
              (pos.exact ? `${pos.expected.toFixed(4)} more guesses on average (${pos.fraction}).` : `at least ${pos.expected.toFixed(4)} more guesses on average.`));
          }
        } catch (e) { /* a heuristic below */ }
        if (seq !== this.seq) return;
      }
      const code = heuristicGuess(game, alive);
      offer(code, `${node} A heuristic move (not proved best: it leaves the fewest secrets expected): ${game.codeText(code)}, of ${plural(alive.length, "possible secret")}.`);
    },

    giveUp() {
      if (this.done) return;
      this.done = true;
      this.gaveUp = true;
      if (this.evil) this.secret = this.aliveNow()[0];
      this.render();
      $("#h-done").focus();
    },

    say(text, error) {
      const box = $("#h-message");
      box.textContent = text;
      box.hidden = !text;
      box.classList.toggle("error", Boolean(error));
    },

    render() {
      const game = TREE.game;
      const moves = this.analysis ? this.analysis.moves : [];
      $("#h-history").replaceChildren(...this.history.map((x, i) => {
        const m = moves[i];
        const best = m && m.best;
        const scoreCell = el("td", { class: "score" + (m && m.optimal ? " good" : "") + (m && !m.unscored && !m.optimal ? " lost" : ""),
          "data-loss": m && !m.unscored ? (m.loss.exact ? m.loss.fraction : `>=${m.loss.at_least}`) : "",
          title: m && m.unscored ? m.unscored : "expected guesses lost against the best move" },
          this.scoring && (!m || m.unscored) ? "scoring…" : lossText(m));
        const bestCell = el("td", { class: "best" }, best && best.guess ? el("details", {}, el("summary", {}, "best"),
          el("span", {}, codeView(game, best.guess), ` ${best.exact ? best.expected.toFixed(4) : "≥ " + best.expected.toFixed(4)} to go`)) : "");
        return el("tr", {},
          el("td", { class: "n" }, String(i + 1)), el("td", {}, codeView(game, x.guess)), el("td", {}, hintView(game, x.hint)),
          el("td", { class: "num" }, x.hint === game.winHint ? "found" : plural(x.left, "secret") + " left"),
          el("td", { class: "muted note" }, x.couldBe ? "" : "could not be the secret"), scoreCell, bestCell);
      }));
      $("#h-table").hidden = !this.history.length;
      $("#h-form").hidden = this.done;
      $("#h-coach").textContent = this.analysis && this.analysis.error ? this.analysis.error
        : this.evil && this.evilNote && this.history.length ? this.evilNote : "";
      const alive = this.aliveNow();
      const rem = $("#h-remaining");
      rem.hidden = this.done;
      if (this.done) {
        rem.replaceChildren();
        this.summary();
        return;
      }
      $("#h-done").hidden = true;
      rem.replaceChildren(el("summary", {}, el("strong", { id: "h-count" }, plural(alive.length, "secret")), " still possible (open to see them)"),
        el("p", { class: "codes" }, listCodes(game, alive, 24)));
    },

    /** The verdict of a game: the coach's summary, and how the tree would have solved the secret. */
    summary() {
      const game = TREE.game, n = this.history.length, secret = game.codeText(this.secret);
      const steps = treePath(TREE, this.secret);
      const treeLine = el("div", { class: "path" }, steps.map((s) => el("span", { class: "step" }, codeView(game, s.node.guess), hintView(game, s.hint))));
      const mean = TREE.stats.total / TREE.stats.secrets;
      let verdict;
      if (this.gaveUp) verdict = this.evil ? `You gave up after ${plural(n, "guess", "guesses")}; the host could still have held any of ${plural(this.aliveNow().length, "secret")}.` : `You gave up after ${plural(n, "guess", "guesses")}.`;
      else if (this.evil) verdict = `The evil host gave in after ${plural(n, "guess", "guesses")}.`;
      else if (n < steps.length) verdict = `You beat the tree: ${plural(n, "guess", "guesses")} against its ${steps.length}. Lucky, or brilliant?`;
      else if (n === steps.length) verdict = `You matched the tree: ${plural(n, "guess", "guesses")}, as it does.`;
      else verdict = `You needed ${plural(n, "guess", "guesses")}; the tree needs ${steps.length} for this secret.`;
      const a = this.analysis;
      let coachLine;
      if (this.scoring) coachLine = "Scoring your moves…";
      else if (a && a.summary) coachLine = a.summary.text;
      else if (a) {
        const scored = a.moves.filter((m) => !m.unscored);
        coachLine = scored.length === a.moves.length
          ? `${scored.filter((m) => m.optimal).length} of your ${plural(a.moves.length, "move")} were optimal (the tree's own moves).`
          : `${plural(scored.length, "move")} of ${a.moves.length} scored from the tree (all optimal: the tree's own moves); the others need the page served by treegen serve.`;
      }
      $("#h-done").replaceChildren(
        el("div", { class: "big" }, this.gaveUp && this.evil ? "One secret it could have held: " : "The secret was ", codeView(game, secret)),
        el("p", { id: "h-verdict" }, verdict, ` Over all ${fmt(TREE.stats.secrets)} secrets the tree averages ${avg(mean)} guesses and never needs more than ${TREE.stats.max_guesses}.`),
        el("p", { id: "h-summary", class: "coach" }, coachLine || ""),
        el("p", { class: "muted" }, "How the tree solves it:"), treeLine,
        el("p", {}, el("button", { type: "button", class: "primary", onclick: () => this.start() }, "Play again")));
      $("#h-done").hidden = false;
    },
  };

  // -- explore the tree -------------------------------------------------------------------------
  const explorer = {
    start() {
      const game = TREE.game;
      $("#x-search").value = "";
      $("#x-search").placeholder = `e.g. ${game.codeText(game.secretCount - 1)}`;
      $("#x-result").replaceChildren();
      const root = TREE.root;
      const top = el("li", { class: "node open", "data-path": "" }, this.row(root, null, root.secrets.length), this.kids(root, ""));
      $("#x-tree").replaceChildren(el("ul", { class: "outline" }, top));
    },

    /** One line of the outline: the hint that leads here, the class size, and the guess made next. */
    row(node, parentCount, count) {
      const game = TREE.game;
      const leaf = !node.kids.length;
      const more = node.total / count;
      const share = parentCount ? count / parentCount : 1;
      return el("div", { class: "row" },
        el("span", { class: "twisty" + (leaf ? " leaf" : ""), "aria-hidden": "true" }),
        node.hint !== null ? hintView(game, node.hint) : el("span", { class: "start" }, "start"),
        el("span", { class: "size", title: `${count} of the ${parentCount || count} secrets` },
          el("span", { class: "meter" }, el("span", { style: `width:${Math.max(2, share * 100).toFixed(1)}%` })),
          plural(count, "secret")),
        el("span", { class: "arrow" }, "→"),
        codeView(game, node.guess),
        leaf ? el("span", { class: "muted" }, "solved") :
          el("span", { class: "muted avg" }, `${avg(more)} guesses on average, at most ${node.max}`));
    },

    kids(node, path) {
      const ul = el("ul", {});
      for (const k of node.kids) {
        const p = path + "/" + TREE.game.formatHint(k.hint);
        const li = el("li", { class: "node", "data-path": p });
        const r = this.row(k.node, node.secrets.length, k.node.secrets.length);
        li.append(r);
        if (k.node.kids.length) {
          r.classList.add("clickable");
          r.tabIndex = 0;
          r.setAttribute("role", "button");
          r.setAttribute("aria-expanded", "false");
          const toggle = () => this.toggle(li, k.node, p);
          r.addEventListener("click", toggle);
          r.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(); } });
        } else if (k.node.secrets.length > 1) {
          // impossible in a checked tree: a leaf is reached by its own guess only
        }
        ul.append(li);
      }
      return ul;
    },

    toggle(li, node, path, open) {
      const isOpen = li.classList.contains("open");
      const want = open === undefined ? !isOpen : open;
      if (want === isOpen) return;
      li.classList.toggle("open", want);
      li.firstChild.setAttribute("aria-expanded", String(want));
      if (want && !li.querySelector(":scope > ul")) li.append(this.kids(node, path));
    },

    find(text) {
      const game = TREE.game, out = $("#x-result");
      document.querySelectorAll("#x-tree .on-path").forEach((e) => e.classList.remove("on-path"));
      let code = parseGuess(game, text);
      if (!(code instanceof Error) && code >= game.secretCount) code = new Error(`${game.codeText(code)} may be guessed but is never the secret`);
      if (code instanceof Error) {
        out.replaceChildren(el("p", { class: "error" }, code.message + "."));
        drawHistogram(null);
        return;
      }
      const steps = treePath(TREE, code);
      out.replaceChildren(el("p", {}, `The tree solves ${game.codeText(code)} with ${plural(steps.length, "guess", "guesses")}:`),
        el("div", { class: "path" }, steps.map((s) => el("span", { class: "step" }, codeView(game, s.node.guess), hintView(game, s.hint)))));
      drawHistogram(steps.length);
      let li = document.querySelector('#x-tree li[data-path=""]');
      li.classList.add("on-path");
      let path = "";
      for (let i = 0; i + 1 < steps.length; i++) {
        const s = steps[i];
        const next = steps[i + 1].node;
        path += "/" + game.formatHint(s.hint);
        const child = li.querySelector(`:scope > ul > li[data-path="${CSS.escape(path)}"]`);
        this.toggle(li, s.node, path.slice(0, path.lastIndexOf("/")), true);
        child.classList.add("on-path");
        if (next.kids.length) this.toggle(child, next, path, true);
        li = child;
      }
      li.firstChild.scrollIntoView({ block: "nearest" });
    },
  };

  // -- why the first guess: trees/openings.json (scripts/build_trees.py --openings) --------------------
  const openings = {
    async start() {
      const box = $("#x-openings");
      box.replaceChildren();
      const game = TREE.game, source = TREE.source;
      if (!SERVED) {
        box.replaceChildren(el("p", { class: "muted small" }, "The values of the other first guesses come with the page served by treegen serve (trees/openings.json)."));
        return;
      }
      if (!HAS_OPENINGS) return;
      let table;
      try {
        const res = await fetch("trees/openings.json", { cache: "no-store" });
        if (!res.ok) return;
        table = (await res.json()).games[game.name];
      } catch (e) {
        return;
      }
      if (!table || !TREE || TREE.source !== source) return;
      const own = table.openings.findIndex((o) => {
        const found = locate(TREE, []);
        return found && found.maps.some((m) => extendMap(game, m, game.parseCode(o.guess), TREE.root.guess));
      });
      const best = table.openings[0].total;
      box.replaceChildren(el("h3", {}, "Why the first guess"),
        el("p", { class: "muted small" }, `Every first guess of ${game.name}, one per class of guesses that are alike up to a relabelling of positions and symbols, with the least total it allows (each proved by exact search). This tree opens with ${TREE.root.text}.`),
        el("div", { class: "scroll" }, el("table", { class: "openings" },
          el("thead", {}, el("tr", {}, el("th", {}, "first guess"), el("th", { class: "num" }, "alike"), el("th", { class: "num" }, "least total"),
            el("th", { class: "num" }, "average"), el("th", { class: "num" }, "more than the best"))),
          el("tbody", {}, table.openings.map((o, i) => el("tr", { class: i === own ? "own" : "", "data-guess": o.guess },
            el("td", {}, codeView(game, o.guess), i === own ? el("span", { class: "muted small" }, " this tree's") : ""),
            el("td", { class: "num" }, fmt(o.codes)), el("td", { class: "num" }, fmt(o.total)),
            el("td", { class: "num" }, avg(o.total / table.secrets)),
            el("td", { class: "num" }, o.total === best ? "best" : `+${avg((o.total - best) / table.secrets)}`)))))));
    },
  };

  // -- compare two trees (treegen/compare.py) --------------------------------------------------------
  /**
   * Walk both trees together: while they guess alike they meet the same classes; the first node pair that
   * guesses differently is a difference (not walked below). Shallowest first, then larger sets first.
   */
  function compareTrees(a, b) {
    const game = a.game, diffs = [];
    let positions = 0;
    const stack = [[a.root, b.root, []]];
    while (stack.length) {
      const [na, nb, path] = stack.pop();
      positions++;
      if (na.guess !== nb.guess) { diffs.push({ path, a: na, b: nb }); continue; }
      for (const k of na.kids) {
        const kb = kidFor(nb, k.hint);
        if (kb) stack.push([k.node, kb, path.concat([na.text, game.formatHint(k.hint)])]);
      }
    }
    diffs.sort((x, y) => x.path.length - y.path.length || y.a.secrets.length - x.a.secrets.length ||
      (x.path.join(" ") < y.path.join(" ") ? -1 : 1));
    return { diffs, positions };
  }

  const comparer = {
    start() {
      const box = $("#x-other");
      const same = LISTED.filter((t) => t.game === TREE.game.name && t.file !== TREE.source);
      box.replaceChildren(el("option", { value: "" }, same.length ? "a tree of this folder…" : "no other tree of this game listed"),
        ...same.map((t) => el("option", { value: t.file }, `${t.file} (${objectiveText(t)}, total ${fmt(t.total)})`)));
      box.disabled = !same.length;
      $("#x-compare-result").replaceChildren();
    },

    async pick(file) {
      if (!file) return;
      try {
        const res = await fetch("trees/" + encodeURIComponent(file), { cache: "no-store" });
        if (!res.ok) throw new Error(`the server answered ${res.status}`);
        this.show(readTree(await res.text()), file);
      } catch (e) {
        $("#x-compare-result").replaceChildren(el("p", { class: "error" }, `${file} cannot be compared: ${e.message}.`));
      }
    },

    read(file) {
      const reader = new FileReader();
      reader.onload = () => {
        try {
          this.show(readTree(reader.result), file.name);
        } catch (e) {
          $("#x-compare-result").replaceChildren(el("p", { class: "error" }, `${file.name} cannot be compared: ${e.message}.`));
        }
      };
      reader.readAsText(file);
    },

    show(other, name) {
      const a = TREE, b = other, game = a.game, out = $("#x-compare-result");
      if (!sameRules(b.game, game)) {
        const what = (g) => (b.game.name === game.name ? `${g.name} (${g.describe()})` : g.name);
        out.replaceChildren(el("p", { class: "error" }, `${name} is a tree for ${what(b.game)}, not ${what(game)}: only trees of one game compare.`));
        return;
      }
      const { diffs, positions } = compareTrees(a, b);
      const hist = (t, k) => t.stats.histogram[k] || 0;
      const most = Math.max(a.stats.histogram.length, b.stats.histogram.length);
      const rows = [["total", fmt(a.stats.total), fmt(b.stats.total)], ["average", avg(a.stats.total / a.stats.secrets), avg(b.stats.total / b.stats.secrets)],
        ["max", String(a.stats.max_guesses), String(b.stats.max_guesses)]];
      for (let k = 1; k < most; k++) rows.push([`${k} guess${k === 1 ? "" : "es"}`, fmt(hist(a, k)), fmt(hist(b, k))]);
      const side = (node) => {
        const n = node.secrets.length;
        return [codeView(game, node.guess), ` ${avg(nodeTotal(node) / n)} on average, at most ${node.max - node.depth + 1}`];
      };
      out.replaceChildren(
        el("div", { class: "scroll" }, el("table", { class: "compare-table" },
          el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", { class: "num" }, `A: ${a.source}`), el("th", { class: "num" }, `B: ${name}`))),
          el("tbody", {}, rows.map((r) => el("tr", {}, el("th", { scope: "row" }, r[0]), el("td", { class: "num" }, r[1]), el("td", { class: "num" }, r[2])))))),
        el("p", {}, diffs.length ? `They first guess differently at ${plural(diffs.length, "position")} (shallowest first, larger sets first):`
          : "The two trees make the same guess everywhere."),
        el("ol", { class: "differences" }, diffs.slice(0, 10).map((d) => el("li", { "data-path": d.path.join(" ") },
          `guess ${d.path.length / 2 + 1} after ${d.path.length ? d.path.join(" ") : "nothing"} (${plural(d.a.secrets.length, "secret")}): A plays `,
          ...side(d.a), "; B plays ", ...side(d.b)))),
        diffs.length > 10 ? el("p", { class: "muted" }, `… and ${diffs.length - 10} more.`) : "");
    },
  };

  // -- wiring ------------------------------------------------------------------------------------
  function init() {
    $("#file").addEventListener("change", (ev) => { loadFile(ev.target.files[0]); ev.target.value = ""; });
    document.addEventListener("dragover", (ev) => { ev.preventDefault(); document.body.classList.add("dragging"); });
    document.addEventListener("dragleave", (ev) => { if (!ev.relatedTarget) document.body.classList.remove("dragging"); });
    document.addEventListener("drop", (ev) => {
      ev.preventDefault();
      document.body.classList.remove("dragging");
      if (ev.dataTransfer.files.length) loadFile(ev.dataTransfer.files[0]);
    });
    document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => selectTab(b.dataset.tab)));
    $("#tabs").addEventListener("keydown", tabKeys);
    $("#h-evil").addEventListener("change", (ev) => {
      if (host.history.length && !host.done && !window.confirm("Start a new game? The game under way will be lost.")) {
        ev.target.checked = !ev.target.checked;
        return;
      }
      host.start();
    });
    $("#g-submit").addEventListener("click", () => guesser.answer());
    $("#g-undo").addEventListener("click", () => guesser.undo());
    document.querySelectorAll(".g-restart").forEach((b) => b.addEventListener("click", () => { $("#g-message").hidden = true; guesser.start(); }));
    $("#h-form").addEventListener("submit", (ev) => { ev.preventDefault(); host.guess($("#h-input").value); });
    $("#h-advice").addEventListener("click", () => host.advise());
    $("#h-giveup").addEventListener("click", () => host.giveUp());
    $("#x-form").addEventListener("submit", (ev) => { ev.preventDefault(); explorer.find($("#x-search").value); });
    $("#x-other").addEventListener("change", (ev) => comparer.pick(ev.target.value));
    $("#x-other-file").addEventListener("change", (ev) => { if (ev.target.files[0]) comparer.read(ev.target.files[0]); ev.target.value = ""; });
    selectTab("guesser");
    loadListing();
    document.body.dataset.ready = "1";
  }

  // What the tests reach (scoring is compared with treegen.rules.score_codes).
  window.treegen = {
    Game, resolveGame, gameFromDict, readTree, TreeFileError,
    /** Hints (ints) of each [guess, secret] pair of code strings in the game described by `gameDict`. */
    scorePairs(gameDict, pairs) {
      const game = gameFromDict(gameDict);
      return pairs.map(([g, s]) => game.score(game.parseCode(g), game.parseCode(s)));
    },
    possibleHints(gameDict) { return [...gameFromDict(gameDict).possibleHints].sort((a, b) => a - b); },
    get tree() { return TREE; },
    // The games in play (the tests set the host's secret through it, as a player with the console could).
    get host() { return host; },
    get guesser() { return guesser; },
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
