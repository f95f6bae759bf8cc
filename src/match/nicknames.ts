/**
 * English forenames and the other forms the same person is registered or known by: pet forms
 * (Bill, Peggy) and short forms (Liam, Kate). Spellings of one name (Catherine, Katherine, Kathryn;
 * Philip, Phillip) are not listed as variants of each other: they sound alike, and are named so
 * (names.ts), though each has its pet forms here. Written for this
 * service from common knowledge of English naming; each line is one group, every name of a group a
 * variant of every other, both ways. A name may sit in several groups (Bert: Albert, Herbert,
 * Robert, Bertram), and is then a variant of the names of each.
 *
 * Kept to forms a caseworker would accept as the same forename on sight: a group never joins two
 * names that are each common as given names in their own right unless one is plainly the other's
 * pet form (Harry and Henry are; Jack and John are).
 */
const GROUPS: readonly string[] = [
  // Men's names
  'albert bert bertie al',
  'alexander alex alec alick sandy xander',
  'alfred alf alfie fred freddie',
  'andrew andy drew',
  'anthony antony tony',
  'archibald archie',
  'arthur art artie',
  'benjamin ben benny benjy',
  'bernard bernie',
  'bertram bert bertie',
  'charles charlie chas chuck',
  'christopher chris kit topher',
  'clifford cliff',
  'daniel dan danny',
  'david dave davy davey dai',
  'dennis denis den',
  'donald don donnie',
  'douglas doug dougie',
  'edward ed eddie ted teddy ned',
  'edmund ed eddie ned',
  'edwin ed eddie',
  'ernest ernie',
  'francis frank frankie fran',
  'frederick fred freddie freddy',
  'geoffrey geoff jeff',
  'jeffrey jeff',
  'gerald gerry jerry',
  'gregory greg',
  'harold harry hal',
  'henry harry hal hank',
  'herbert herb bert bertie',
  'isaac ike',
  'jacob jake',
  'james jim jimmy jamie jem',
  'jeremy jerry jez',
  'john jack johnny jon',
  'jonathan jon jonny',
  'joseph joe joey jo',
  'kenneth ken kenny',
  'lawrence laurence larry laurie',
  'leonard len lenny leo',
  'louis lewis lou',
  'matthew matt matty',
  'michael mick mike mickey mikey',
  'nathan nat nate',
  'nathaniel nat nate',
  'nicholas nick nicky nico',
  'oliver ollie olly',
  'patrick pat paddy',
  'peter pete',
  'philip phil pip',
  'phillip phil pip',
  'raymond ray',
  'reginald reg reggie',
  'richard dick rick ricky rich richie',
  'robert bob bobby rob robbie bert',
  'ronald ron ronnie',
  'samuel sam sammy',
  'sidney sydney sid',
  'stanley stan',
  'stephen steve stevie',
  'steven steve stevie',
  'terence terrence terry',
  'theodore theo ted teddy',
  'thomas tom tommy',
  'timothy tim timmy',
  'walter walt wally',
  'wilfred wilf fred',
  'william bill billy will willie liam',
  'zachary zach zack',
  // Women's names
  'abigail abbie abby gail',
  'alexandra alex alexa sandra sandy',
  'alice ally allie',
  'amanda mandy',
  'ann anne anna annie nan nancy',
  'barbara babs barbie',
  'beatrice bea beattie trixie',
  'caroline carolyn carol carrie',
  'catherine kate katie cathy cath kitty kay',
  'katherine kate katie kathy kath kitty kay',
  'kathryn kate kathy',
  'charlotte lottie charlie',
  'christine christina chris chrissie tina',
  'deborah debra debbie deb',
  'dorothy dot dottie dolly dora',
  'eleanor elinor ellie nell nellie elle',
  'elizabeth elisabeth eliza liz lizzie beth betty bess bessie libby elsie lisa',
  'ellen ellie nell nellie',
  'emily em emmy millie',
  'emma em emmy',
  'florence flo florrie',
  'frances fran frankie fanny',
  'gillian gill jill',
  'jillian jill',
  'helen helena nell nellie',
  'isabel izzy bella',
  'isabella izzy bella',
  'isabelle izzy bella',
  'isobel izzy',
  'jacqueline jackie jacqui',
  'jane jenny janey',
  'janet jan',
  'jennifer jenny jen',
  'jessica jess jessie',
  'josephine jo josie',
  'judith judy jude',
  'julia julie jules',
  'kimberley kimberly kim',
  'lillian lilian lily lil',
  'louisa louise lou lulu',
  'lucy lucinda lu',
  'margaret maggie meg peggy peg margie madge marjorie maisie greta rita',
  'marjorie margery marge',
  'mary molly polly mae may mamie',
  'matilda tilly tilda mattie',
  'melissa mel missy',
  'millicent millie',
  'patricia pat patsy trish tricia',
  'penelope penny',
  'rebecca becky becca',
  'rosalind ros roz',
  'rosemary rosie rose',
  'sarah sara sally sadie',
  'susan susannah suzanne sue susie',
  'teresa theresa tessa tess terri',
  'valerie val',
  'victoria vicky vicki tori',
  'winifred winnie freda',
];

const groupsOf = new Map<string, number[]>();
GROUPS.forEach((line, group) => {
  for (const name of line.split(' ')) {
    const groups = groupsOf.get(name);
    if (groups) groups.push(group);
    else groupsOf.set(name, [group]);
  }
});

const NONE: readonly string[] = [];
const variantsOf = new Map<string, readonly string[]>();
for (const [name, groups] of groupsOf) {
  const variants = new Set(groups.flatMap((group) => GROUPS[group].split(' ')));
  variants.delete(name);
  variantsOf.set(name, [...variants].sort());
}

/** The other forms of a normalised forename (one word), both ways: william gives bill, and bill william. */
export const nicknamesOf = (word: string): readonly string[] => variantsOf.get(word) ?? NONE;

/** Whether two different normalised forenames (one word each) are forms of one name. */
export function areNicknames(a: string, b: string): boolean {
  if (a === b) return false;
  const groups = groupsOf.get(a);
  if (!groups) return false;
  const others = groupsOf.get(b);
  return others !== undefined && groups.some((group) => others.includes(group));
}
