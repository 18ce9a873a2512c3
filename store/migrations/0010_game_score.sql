-- The puzzle's Sudoku Explainer score, kept with the game when it was
-- made (0: unknown): a rated game seeds the puzzle's rating from it.
ALTER TABLE games ADD COLUMN se_score REAL NOT NULL DEFAULT 0;
