/** History strings (zh-CN). */
export default {};
