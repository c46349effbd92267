/** Project strings (en-US). */
export default {};
