// A made-up minified bundle for TestFind (written for this test, no shipped code): a
// summary formatter with helpers, a refusal check before a "no_summary_block" failure, a
// prompt that mentions "Summary:" as a decoy, and an unrelated function with a helper's
// name far away, as minified names repeat across the modules of a real bundle.
function tagAt(a){return a+1}var pad="PAD";
function writePrompt(x){return`Answer with two parts.
Summary:
1. What was asked`+x.trim()}
function tagAt(text,name){const open="<"+name+">",close="</"+name+">";const a=text.indexOf(open);if(a<0)return null;const b=text.indexOf(close,a+open.length);return b<0?null:[a,b+close.length,text.slice(a+open.length,b)]}
function fmt(text){const r=tagAt(text,"summary");let out=r?text.slice(0,r[0])+`Summary:
${r[2].trim()}`+text.slice(r[1]):text;return out.replace(/\n{2,}/g,"\n\n").trim()}
function hasBlock(t){return tagAt(t,"summary")!==null}function hasOpen(t){return/^<summary>/m.test(t)}
async function compact(x,reply){if(x.left!==void 0&&!hasBlock(reply)&&!hasOpen(reply))throw fail("no_summary_block");return{text:fmt(reply)}}
