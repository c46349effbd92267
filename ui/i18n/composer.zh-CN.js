/** Composer strings (zh-CN). */
export default {};
