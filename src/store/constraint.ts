/** How a dialect classifies a driver error: a unique-key violation, a foreign-key violation, or neither. */
export type ConstraintKind = 'unique' | 'foreign_key' | null;
