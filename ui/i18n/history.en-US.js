/** History strings (en-US). */
export default {};
