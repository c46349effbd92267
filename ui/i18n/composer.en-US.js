/** Composer strings (en-US). */
export default {};
