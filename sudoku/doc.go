// Package sudoku is the engine of sudokubot: grids of any box shape, parsing
// of pasted text, formatting, validation, solving, human-style techniques,
// hints, rating and generation.
//
// The package is pure: it never reads the wall clock for results, never uses
// global randomness and never does I/O. Randomness comes in as an explicit
// *rand.Rand or seed; dates come in as parameters.
//
// # Map of the package
//
// Files are grouped by what they do; each group's tests sit beside it.
//
// Shapes and grids:
//   - grid.go: [Shape] (box rows x box columns, 4x4 to 25x25, square and
//     rectangular boxes), [Alphabet], [Grid] (cells, and the player's pencil
//     marks in Grid.Marks), units, cell names and the shared [Geometry].
//   - candidates.go: the candidates each empty cell has, as bitmasks.
//
// Parsing pasted text ([Parse], [ParseWith], [ParseError]), in the order a
// paste goes through:
//   - parse.go: the entry points, options, and the shortcut for a plain
//     81-character line.
//   - parse_chars.go: which characters are cells, blanks and decoration.
//   - parse_lines.go: tokenising each line into characters, words, numbers,
//     tab-separated fields and a row label.
//   - parse_rows.go: one line read as a row of n cells, including rows
//     whose blanks are spaces between bars.
//   - parse_pencil.go: pencil-mark grids (HoDoKu, Sudoku Explainer, Simple
//     Sudoku, SudokuWiki, forum posts) read into Grid.Marks.
//   - parse_hodoku.go: HoDoKu's one-line library format, a position with
//     its deleted candidates.
//   - parse_spaced.go: newspaper grids whose empty cells are spaces, the
//     cells lined up in columns.
//   - parse_layout.go: where a grid lies in the text (a row a line, one
//     line, a wrapped block) and its box shape from the separators.
//   - parse_symbols.go: the alphabet and each cell's value.
//   - parse_errors.go: what to tell the person when nothing reads as a grid.
//
// Formatting: format.go writes a grid back as text ([Format],
// [FormatNumbers], [FormatRows]), and format_pencil.go a grid with pencil
// marks as a pencil-mark grid; everything they write, Parse reads back,
// marks included.
//
// Validation: validate.go finds clashes ([Grid.Clashes], [Clash]): the cells
// that break a rule, with the unit and symbol involved.
//
// Solving: solve.go ([Solve], [SolveWith], [Result], [Status]) is the entry;
// solve9.go is the fixed-size 9x9 search and solve_generic.go the one for
// every other shape, which on the big grids (N >= 20) hands a search that
// outlasts a few hundred nodes to the clause-learning search of
// solve_learn.go. All count solutions up to a limit, honour a context and
// restrict cells to their pencil marks.
//
// Human techniques: logic.go ([Logic]) applies techniques from easiest to
// hardest and returns each step as data ([Step]); the techniques live in
// tech_singles.go, tech_locked.go, tech_subsets.go, tech_wings.go,
// tech_chains.go and tech_forcing.go.
//
// Hints: hint.go ([Hint]) turns the next step into a progressive hint
// (technique, then where, then the whole step), from the position as the
// player has it, pencil marks included; hint_solve.go solves such a
// position honouring its marks.
//
// Rating: rate.go ([Rate], [RateContext], [Level]) scores a puzzle on the
// Sudoku Explainer scale by its hardest step. On 9x9 grids the steps from
// 6.2 on are Sudoku Explainer's own (tech_sealigned.go, tech_sechain.go:
// its chains, up to nested forcing chains, scored as SE scores them), so
// the number is SE's to the tenth; other shapes use the ladder.
//
// Generating: generate.go ([Generate]) fills a random grid
// (generate_fill.go) and removes clues keeping one solution, using a quick
// singles-only check (generate_singles.go) and rating to hit a level
// (generate_rate.go); symmetry.go holds the clue symmetries ([Symmetry]).
//
// The daily puzzle: daily.go ([Daily]) makes the day's puzzles, a pure
// function of a server secret, the date and the level; canonical.go
// ([Canonical]) gives a grid's canonical form, the same for every copy of a
// puzzle up to the symmetries of Sudoku; daily_match.go ([Copies])
// recognises the day's dailies in what players paste, rotated or
// relabelled, by their solution, or (daily_embed.go) by their givens in a
// position with a wrong entry.
package sudoku
