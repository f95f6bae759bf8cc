/**
 * The generator's own pools of people's names: forenames and surnames of the
 * communities of England and Wales, by era of birth, and the forms of address.
 *
 * Lists are in rough order of how common their items are, the commonest
 * first: the generator weights them by rank (see `Weighted.ranked`), so the
 * first surnames of a list are shared by many records and searches hit several.
 *
 * Accented (Zoë, Søren, Bartłomiej), hyphenated (Anne-Marie, Lloyd-Jones) and
 * apostrophe (O'Connor, D'Souza) names are kept to the small share they have
 * in the registers; the generator also joins two surnames now and then.
 */

/** One list per era of birth: before 1950, 1950 to 1989, 1990 on. */
export interface ByEra<T> {
  readonly classic: T;
  readonly mid: T;
  readonly modern: T;
}

export interface Community {
  readonly name: string;
  readonly male: ByEra<readonly string[]>;
  readonly female: ByEra<readonly string[]>;
  readonly surnames: readonly string[];
  /** Birthplaces of members of the community born outside England and Wales. */
  readonly abroad: readonly string[];
  /** Relative share of people in England and in Wales. */
  readonly england: number;
  readonly wales: number;
  /** Multiplier of the share for people born before 1950. */
  readonly early: number;
}

const sameInEveryEra = <T>(list: T): ByEra<T> => ({ classic: list, mid: list, modern: list });

// ---------------------------------------------------------------------------
// Forenames and surnames, by community
// ---------------------------------------------------------------------------

const english: Community = {
  name: 'english',
  male: {
    classic: [
      'John', 'William', 'George', 'Thomas', 'James', 'Arthur', 'Frederick', 'Albert', 'Charles', 'Harold',
      'Henry', 'Ernest', 'Frank', 'Walter', 'Joseph', 'Alfred', 'Edward', 'Robert', 'Harry', 'Leonard',
      'Stanley', 'Sidney', 'Kenneth', 'Ronald', 'Dennis', 'Eric', 'Herbert', 'Reginald', 'Norman', 'Cyril',
      'Jack', 'Peter', 'Raymond', 'Donald', 'Leslie', 'Douglas', 'Gordon', 'Bernard', 'Percy', 'Cecil',
      'Clifford', 'Horace', 'Wilfred', 'Maurice', 'Gerald', 'Victor', 'Ralph', 'Roy', 'Hubert', 'Noël',
    ],
    mid: [
      'David', 'Paul', 'Mark', 'Michael', 'Andrew', 'Stephen', 'Richard', 'Peter', 'Christopher', 'Ian',
      'Gary', 'Robert', 'Alan', 'Steven', 'Anthony', 'Simon', 'Martin', 'Kevin', 'Neil', 'Philip',
      'Brian', 'Graham', 'Keith', 'Colin', 'Jonathan', 'Matthew', 'Darren', 'Lee', 'Stuart', 'Nigel',
      'Craig', 'Jason', 'Barry', 'Trevor', 'Terence', 'Timothy', 'Carl', 'Wayne', 'Dean', 'Adrian',
      'Russell', 'Nicholas', 'Daniel', 'Scott', 'Shaun', 'Jamie', 'Jeffrey', 'Glen', 'Ricky', 'Jean-Paul',
    ],
    modern: [
      'Oliver', 'Jack', 'Harry', 'George', 'Charlie', 'Thomas', 'Jacob', 'Noah', 'Oscar', 'Leo',
      'Alfie', 'Joshua', 'James', 'William', 'Freddie', 'Archie', 'Theo', 'Henry', 'Arthur', 'Isaac',
      'Ethan', 'Samuel', 'Daniel', 'Lucas', 'Max', 'Mason', 'Logan', 'Alexander', 'Benjamin', 'Dylan',
      'Finley', 'Reuben', 'Tyler', 'Callum', 'Connor', 'Ryan', 'Kieran', 'Bradley', 'Jake', 'Luke',
      'Liam', 'Aaron', 'Elliot', 'Louie', 'Toby', 'Harrison', 'Sebastian', 'Teddy', 'Rory', 'Jenson',
    ],
  },
  female: {
    classic: [
      'Mary', 'Margaret', 'Elizabeth', 'Dorothy', 'Joan', 'Doris', 'Florence', 'Edith', 'Annie', 'Alice',
      'Elsie', 'Ethel', 'Kathleen', 'Irene', 'Jean', 'Lilian', 'Gladys', 'Winifred', 'Hilda', 'Joyce',
      'Vera', 'Violet', 'Eileen', 'Marjorie', 'Edna', 'Betty', 'Phyllis', 'Ivy', 'Ada', 'Emily',
      'Grace', 'Rose', 'Barbara', 'Olive', 'Mabel', 'Evelyn', 'Audrey', 'Sylvia', 'Agnes', 'Beatrice',
      'Muriel', 'Nellie', 'Maud', 'Ruby', 'Mildred', 'Hazel', 'Gwendoline', 'Peggy', 'Constance', 'Marion',
    ],
    mid: [
      'Susan', 'Sarah', 'Julie', 'Karen', 'Helen', 'Linda', 'Lisa', 'Claire', 'Michelle', 'Nicola',
      'Joanne', 'Amanda', 'Deborah', 'Tracey', 'Jacqueline', 'Christine', 'Patricia', 'Sharon', 'Alison', 'Angela',
      'Elaine', 'Emma', 'Rachel', 'Louise', 'Catherine', 'Caroline', 'Gillian', 'Janet', 'Carol', 'Jane',
      'Kelly', 'Samantha', 'Donna', 'Dawn', 'Andrea', 'Anne', 'Ann', 'Pauline', 'Sandra', 'Wendy',
      'Lorraine', 'Valerie', 'Kim', 'Lynn', 'Maria', 'Anne-Marie', 'Sarah-Jane', 'Mary-Jane', 'Kelly-Ann', 'Renée',
    ],
    modern: [
      'Olivia', 'Amelia', 'Emily', 'Isla', 'Ava', 'Jessica', 'Lily', 'Sophie', 'Grace', 'Mia',
      'Isabella', 'Chloe', 'Poppy', 'Ella', 'Evie', 'Charlotte', 'Freya', 'Sophia', 'Ruby', 'Hannah',
      'Megan', 'Lucy', 'Holly', 'Ellie', 'Millie', 'Daisy', 'Phoebe', 'Florence', 'Ivy', 'Matilda',
      'Rosie', 'Willow', 'Scarlett', 'Harper', 'Erin', 'Lauren', 'Bethany', 'Amy', 'Katie', 'Abigail',
      'Eleanor', 'Imogen', 'Georgia', 'Maisie', 'Darcy', 'Zoë', 'Chloë', 'Lily-Rose', 'Ellie-Mae', 'Lily-Mae',
    ],
  },
  surnames: [
    'Smith', 'Jones', 'Williams', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Thomas', 'Johnson',
    'Roberts', 'Robinson', 'Thompson', 'Wright', 'Walker', 'White', 'Edwards', 'Hughes', 'Green', 'Hall',
    'Lewis', 'Harris', 'Clarke', 'Jackson', 'Wood', 'Turner', 'Martin', 'Cooper', 'Hill', 'Ward',
    'Morris', 'Moore', 'Clark', 'Lee', 'King', 'Baker', 'Harrison', 'Morgan', 'Allen', 'James',
    'Scott', 'Phillips', 'Watson', 'Davis', 'Parker', 'Price', 'Bennett', 'Young', 'Griffiths', 'Mitchell',
    'Kelly', 'Cook', 'Carter', 'Richardson', 'Bailey', 'Collins', 'Bell', 'Shaw', 'Miller', 'Cox',
    'Richards', 'Marshall', 'Anderson', 'Simpson', 'Ellis', 'Adams', 'Wilkinson', 'Foster', 'Chapman', 'Powell',
    'Webb', 'Rogers', 'Gray', 'Mason', 'Hunt', 'Matthews', 'Owen', 'Palmer', 'Holmes', 'Mills',
    'Barnes', 'Knight', 'Lloyd', 'Butler', 'Russell', 'Barker', 'Fisher', 'Stevens', 'Jenkins', 'Dixon',
    'Harvey', 'Graham', 'Pearson', 'Fletcher', 'Gibson', 'Howard', 'Andrews', 'Elliott', 'Reynolds', 'Saunders',
    'Payne', 'Fox', 'Ford', 'Pearce', 'Day', 'Brooks', 'West', 'Lawrence', 'Cole', 'Atkinson',
    'Bradley', 'Spencer', 'Dawson', 'Ball', 'Burton', 'Watts', 'Rose', 'Booth', 'Perry', 'Wells',
    'Armstrong', 'Francis', 'Hayes', 'Hart', 'Hudson', 'Newman', 'Barrett', 'Webster', 'Hunter', 'Gregory',
    'Carr', 'Lowe', 'Page', 'Marsh', 'Riley', 'Dunn', 'Woods', 'Parsons', 'Berry', 'Stone',
    'Holland', 'Hawkins', 'Harding', 'Porter', 'Newton', 'Oliver', 'Reed', 'Williamson', 'Bird', 'Gardner',
    'Dean', 'Lane', 'Cooke', 'Bates', 'Burgess', 'Bishop', 'Walton', 'Nicholson', 'Shepherd', 'Cross',
    'Long', 'Freeman', 'Warren', 'Nicholls', 'Sutton', 'Yates', 'Hodgson', 'Robson', 'Curtis', 'Hopkins',
    'Harper', 'Coleman', 'Watkins', 'Moss', 'Chambers', 'Griffin', 'Sharp', 'Hardy', 'Wheeler', 'Potter',
    'Osborne', 'Wallace', 'George', 'Jordan', 'Hutchinson', 'Rowe', 'May', 'Gilbert', 'Willis', 'Higgins',
    'Read', 'Miles', 'Stevenson', 'Stephenson', 'Hammond', 'Arnold', 'Buckley', 'Walters', 'Hewitt', 'Barber',
    'Nelson', 'Slater', 'Austin', 'Whitehead', 'Mann', 'Frost', 'Lambert', 'Stephens', 'Blake', 'Goodwin',
    'Barton', 'Woodward', 'Barnett', 'Baxter', 'Clayton', 'Nash', 'Greenwood', 'Jennings', 'Holt', 'Kemp',
    'Poole', 'Bond', 'Stokes', 'Tucker', 'Fowler', 'Heath', 'Norman', 'Middleton', 'Lawson', 'Banks',
    'French', 'Stanley', 'Jarvis', 'Gibbs', 'Hayward', 'Dickinson', 'Todd', 'Barlow', 'Peters', 'Lucas',
    'Knowles', 'Hartley', 'Simmons', 'Morton', 'Field', 'Norris', 'Townsend', 'Preston', 'Hancock', 'Thornton',
    'Baldwin', 'Burrows', 'Briggs', 'Storey', 'Pope', 'Hargreaves', 'Sutcliffe', 'Ackroyd', 'Entwistle', 'Greenhalgh',
    'Haworth', 'Kershaw', 'Lomax', 'Pickles', 'Crabtree', 'Holroyd', 'Hepworth', 'Brearley', 'Ramsbottom', 'Higginbottom',
    'Pascoe', 'Penrose', 'Tremayne', 'Nancarrow', 'Pengelly', 'Trevithick', 'Smith-Jones', 'Taylor-Johnson', 'Harding-Price', 'Brooke-Taylor',
  ],
  abroad: ['Glasgow, Scotland', 'Edinburgh, Scotland', 'Belfast, Northern Ireland', 'Dublin, Ireland', 'Toronto, Canada', 'Sydney, Australia', 'Auckland, New Zealand', 'Gibraltar', 'Cape Town, South Africa', 'Rinteln, Germany'],
  england: 78,
  wales: 24,
  early: 1.3,
};

const welsh: Community = {
  name: 'welsh',
  male: sameInEveryEra([
    'Rhys', 'Dafydd', 'Owain', 'Gareth', 'Huw', 'Emyr', 'Iwan', 'Gethin', 'Aled', 'Dewi',
    'Geraint', 'Hywel', 'Ioan', 'Morgan', 'Rhodri', 'Siôn', 'Tomos', 'Osian', 'Cai', 'Dylan',
    'Elis', 'Gruffudd', 'Iolo', 'Steffan', 'Trystan', 'Ifan', 'Wyn', 'Alun', 'Berwyn', 'Gwilym',
    'Idris', 'Emrys', 'Eifion', 'Llŷr', 'Macsen',
  ]),
  female: sameInEveryEra([
    'Megan', 'Catrin', 'Ffion', 'Cerys', 'Bethan', 'Carys', 'Elin', 'Rhiannon', 'Siân', 'Lowri',
    'Nia', 'Angharad', 'Eleri', 'Gwen', 'Sioned', 'Manon', 'Seren', 'Heledd', 'Mererid', 'Non',
    'Tegan', 'Mali', 'Efa', 'Alaw', 'Nerys', 'Glenys', 'Myfanwy', 'Olwen', 'Eirlys', 'Delyth',
    'Menna', 'Awen', 'Betsan', 'Enfys', 'Gwenllïan',
  ]),
  surnames: [
    'Jones', 'Williams', 'Davies', 'Evans', 'Thomas', 'Roberts', 'Hughes', 'Lewis', 'Morgan', 'Griffiths',
    'Edwards', 'Owen', 'Price', 'Lloyd', 'Rees', 'Jenkins', 'Powell', 'Parry', 'Pritchard', 'Morris',
    'Howells', 'Bowen', 'Vaughan', 'Pugh', 'Prosser', 'Probert', 'Pryce', 'Rowlands', 'Llewellyn', 'Meredith',
    'Gittins', 'Bevan', 'Ellis', 'Humphreys', 'Prydderch', 'Lloyd-Jones', 'Wynne-Jones', 'Vaughan-Thomas', 'Rhys-Davies', 'Parry-Williams',
  ],
  abroad: ['Patagonia, Argentina', 'Liverpool', 'Chester'],
  england: 2,
  wales: 62,
  early: 1.2,
};

const irishScottish: Community = {
  name: 'irish and scottish',
  male: sameInEveryEra([
    'Seán', 'Patrick', 'Declan', 'Liam', 'Conor', 'Ciarán', 'Pádraig', 'Eoin', 'Cormac', 'Niall',
    'Brendan', 'Kieran', 'Dermot', 'Colm', 'Oisín', 'Donal', 'Fergus', 'Hamish', 'Alasdair', 'Angus',
    'Callum', 'Ewan', 'Finlay', 'Lachlan', 'Ruairidh', 'Duncan', 'Malcolm', 'Fraser', 'Euan', 'Murdo',
  ]),
  female: sameInEveryEra([
    'Niamh', 'Aoife', 'Siobhán', 'Sinéad', 'Róisín', 'Órla', 'Saoirse', 'Caoimhe', 'Clodagh', 'Bridget',
    'Bernadette', 'Mairéad', 'Ciara', 'Aisling', 'Deirdre', 'Maeve', 'Gráinne', 'Nuala', 'Eimear', 'Sorcha',
    'Eilidh', 'Kirsty', 'Morag', 'Fiona', 'Catriona', 'Ailsa', 'Shona', 'Mhairi', 'Isla', 'Fionnuala',
  ]),
  surnames: [
    'Murphy', 'Kelly', "O'Brien", 'Byrne', 'Ryan', "O'Connor", 'Walsh', "O'Neill", 'Doyle', 'McCarthy',
    'Gallagher', "O'Sullivan", 'Doherty', 'Kennedy', 'Lynch', 'Quinn', "O'Reilly", 'Brennan', 'Kavanagh', 'Fitzgerald',
    "O'Donnell", 'Maguire', 'Nolan', "O'Leary", 'Flanagan', 'Duffy', "O'Callaghan", "O'Mahony", "O'Hara", "O'Keefe",
    'Campbell', 'MacDonald', 'Stewart', 'Robertson', 'Murray', 'MacLeod', 'MacKenzie', 'Fraser', 'Ross', 'Sinclair',
    'McLean', 'Cameron', 'Grant', 'Ferguson', 'Buchanan', 'Reid', 'Henderson', 'Kerr', 'Docherty', 'Sweeney',
  ],
  abroad: ['Dublin, Ireland', 'Cork, Ireland', 'Galway, Ireland', 'Limerick, Ireland', 'Belfast, Northern Ireland', 'Derry, Northern Ireland', 'Glasgow, Scotland', 'Aberdeen, Scotland', 'Dundee, Scotland', 'Inverness, Scotland'],
  england: 6,
  wales: 4,
  early: 1.1,
};

const southAsian: Community = {
  name: 'south asian',
  male: sameInEveryEra([
    'Mohammed', 'Muhammad', 'Ahmed', 'Ali', 'Hassan', 'Imran', 'Bilal', 'Zain', 'Ibrahim', 'Yusuf',
    'Omar', 'Tariq', 'Asif', 'Shahid', 'Rajesh', 'Sanjay', 'Vijay', 'Amit', 'Arjun', 'Rohan',
    'Ravi', 'Sunil', 'Anil', 'Deepak', 'Harpreet', 'Gurpreet', 'Jaspal', 'Manjit', 'Sukhwinder', 'Rajinder',
    'Aarav', 'Dev', 'Kabir', 'Faisal', 'Junaid', 'Rizwan', 'Abdul', 'Nadeem', 'Ayaan', 'Rayyan',
  ]),
  female: sameInEveryEra([
    'Fatima', 'Aisha', 'Ayesha', 'Zainab', 'Maryam', 'Amina', 'Hafsa', 'Sana', 'Nadia', 'Farah',
    'Shabana', 'Nasreen', 'Rukhsana', 'Parveen', 'Yasmin', 'Priya', 'Anjali', 'Sunita', 'Neha', 'Pooja',
    'Kavita', 'Meera', 'Anita', 'Asha', 'Deepa', 'Simran', 'Harleen', 'Jaspreet', 'Manpreet', 'Navdeep',
    'Kiran', 'Sonia', 'Aaliyah', 'Inaya', 'Anaya', 'Zara', 'Alisha', 'Sadia', 'Shazia', 'Gurleen',
  ]),
  surnames: [
    'Khan', 'Ahmed', 'Hussain', 'Ali', 'Patel', 'Begum', 'Shah', 'Iqbal', 'Akhtar', 'Mahmood',
    'Rahman', 'Islam', 'Kaur', 'Singh', 'Miah', 'Uddin', 'Chowdhury', 'Hossain', 'Sandhu', 'Gill',
    'Dhillon', 'Sidhu', 'Bains', 'Sharma', 'Gupta', 'Kumar', 'Mistry', 'Chauhan', 'Parmar', 'Joshi',
    'Desai', 'Mehta', 'Nair', 'Pillai', 'Menon', 'Qureshi', 'Malik', 'Butt', 'Raja', 'Bibi',
    'Anwar', 'Aslam', 'Javed', "D'Souza", "D'Silva", "D'Cruz", "D'Costa", 'Fernandes', 'Rodrigues', 'Lad',
  ],
  abroad: ['Lahore, Pakistan', 'Mirpur, Pakistan', 'Karachi, Pakistan', 'Rawalpindi, Pakistan', 'Sylhet, Bangladesh', 'Dhaka, Bangladesh', 'Amritsar, India', 'Jalandhar, India', 'Ahmedabad, India', 'Mumbai, India', 'Goa, India', 'Kerala, India', 'Nairobi, Kenya', 'Kampala, Uganda', 'Colombo, Sri Lanka'],
  england: 7.5,
  wales: 2,
  early: 0.15,
};

const africanCaribbean: Community = {
  name: 'african and caribbean',
  male: sameInEveryEra([
    'Kwame', 'Kofi', 'Kwabena', 'Yaw', 'Chukwuemeka', 'Chinedu', 'Emeka', 'Obinna', 'Oluwaseun', 'Tunde',
    'Femi', 'Segun', 'Kayode', 'Ade', 'Delroy', 'Winston', 'Leroy', 'Everton', 'Clinton', 'Errol',
    'Desmond', 'Lloyd', 'Marcus', 'Jerome', 'Tyrone', 'Andre', 'Kareem', 'Dwayne', 'Jermaine', 'Nathaniel',
  ]),
  female: sameInEveryEra([
    'Abena', 'Akua', 'Ama', 'Adwoa', 'Esi', 'Chiamaka', 'Ngozi', 'Chidinma', 'Adaeze', 'Ifeoma',
    'Funmilayo', 'Folasade', 'Yetunde', 'Bukola', 'Kemi', 'Tolani', 'Blessing', 'Precious', 'Marcia', 'Paulette',
    'Hyacinth', 'Beverley', 'Janice', 'Claudette', 'Shanice', 'Tanisha', 'Jade', 'Grace', 'Patience', 'Comfort',
  ]),
  surnames: [
    'Campbell', 'Clarke', 'Brown', 'Williams', 'Thompson', 'Robinson', 'Francis', 'Henry', 'Lewis', 'Grant',
    'Johnson', 'Bailey', 'Reid', 'Gordon', 'Samuels', 'Forbes', 'McKenzie', 'Okafor', 'Okonkwo', 'Adeyemi',
    'Adebayo', 'Oluwole', 'Mensah', 'Owusu', 'Boateng', 'Asante', 'Osei', 'Appiah', 'Nwosu', 'Eze',
    'Obi', 'Afolabi', 'Balogun', 'Ogunleye', 'Danso', 'Agyeman', 'Bankole', 'Chukwu', 'Adewale', 'Oduya',
  ],
  abroad: ['Kingston, Jamaica', 'Montego Bay, Jamaica', 'Port of Spain, Trinidad', 'Bridgetown, Barbados', 'Georgetown, Guyana', 'Lagos, Nigeria', 'Ibadan, Nigeria', 'Enugu, Nigeria', 'Accra, Ghana', 'Kumasi, Ghana', 'Harare, Zimbabwe', 'Freetown, Sierra Leone'],
  england: 4,
  wales: 1,
  early: 0.1,
};

const easternEuropean: Community = {
  name: 'eastern european',
  male: sameInEveryEra([
    'Piotr', 'Krzysztof', 'Tomasz', 'Paweł', 'Michał', 'Łukasz', 'Marcin', 'Jakub', 'Kacper', 'Bartłomiej',
    'Grzegorz', 'Wojciech', 'Mateusz', 'Szymon', 'Adam', 'Andrzej', 'Marek', 'Dawid', 'Jan', 'Stanisław',
    'Andrei', 'Mihai', 'Ionuț', 'Vasile', 'Darius', 'Tomas', 'Jonas', 'Mantas',
  ]),
  female: sameInEveryEra([
    'Anna', 'Agnieszka', 'Katarzyna', 'Małgorzata', 'Magdalena', 'Joanna', 'Monika', 'Ewa', 'Zofia', 'Natalia',
    'Aleksandra', 'Justyna', 'Karolina', 'Dorota', 'Marta', 'Paulina', 'Weronika', 'Wiktoria', 'Zuzanna', 'Oliwia',
    'Ioana', 'Elena', 'Andreea', 'Gabriela', 'Ieva', 'Rūta', 'Kristina', 'Laura',
  ]),
  surnames: [
    'Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak',
    'Dąbrowski', 'Kozłowski', 'Jankowski', 'Mazur', 'Kwiatkowski', 'Krawczyk', 'Piotrowski', 'Grabowski', 'Nowakowski', 'Pawłowski',
    'Michalski', 'Zając', 'Król', 'Wieczorek', 'Popescu', 'Ionescu', 'Popa', 'Kazlauskas', 'Petrauskas', 'Jankauskas',
  ],
  abroad: ['Kraków, Poland', 'Warszawa, Poland', 'Wrocław, Poland', 'Gdańsk, Poland', 'Poznań, Poland', 'Łódź, Poland', 'Bucureşti, Romania', 'Iaşi, Romania', 'Vilnius, Lithuania', 'Kaunas, Lithuania', 'Rīga, Latvia'],
  england: 2.5,
  wales: 1.5,
  early: 0.2,
};

const westernEuropean: Community = {
  name: 'western european',
  male: sameInEveryEra([
    'José', 'João', 'Luís', 'André', 'Sérgio', 'Martín', 'Andrés', 'Nicolás', 'Tomás', 'Joaquín',
    'Rubén', 'Álvaro', 'Jérôme', 'François', 'Hervé', 'Loïc', 'René', 'Léon', 'Mathéo', 'Pierre',
    'Jean-Luc', 'Giuseppe', 'Marco', 'Luca', 'Matteo', 'Niccolò', 'Jürgen', 'Jörg', 'Klaus', 'Stefan',
    'Søren', 'Bjørn', 'Lars', 'Henrik', 'Anders', 'Åke', 'Nikolaos', 'Giorgos', 'Andreas', 'Christos',
  ]),
  female: sameInEveryEra([
    'Chloé', 'Zoé', 'Léa', 'Hélène', 'Amélie', 'Céline', 'Mélanie', 'Anaïs', 'Gaëlle', 'Noémie',
    'Élodie', 'Marie-Claire', 'Anne-Sophie', 'María', 'Lucía', 'Sofía', 'Inés', 'Begoña', 'Mónica', 'Inês',
    'Patrícia', 'Conceição', 'Giulia', 'Francesca', 'Chiara', 'Martina', 'Ingrid', 'Åsa', 'Sigrid', 'Astrid',
    'Solveig', 'Mette', 'Birgit', 'Ursula', 'Heike', 'Eleni', 'Maria', 'Sophia', 'Katerina', 'Dimitra',
  ]),
  surnames: [
    'García', 'Fernández', 'Rodríguez', 'López', 'Martínez', 'Pérez', 'González', 'Sánchez', 'Núñez', 'Jiménez',
    'Silva', 'Santos', 'Ferreira', 'Pereira', 'Gonçalves', 'Sousa', 'Rossi', 'Russo', 'Esposito', 'Bianchi',
    'Romano', 'Colombo', 'Müller', 'Schröder', 'Schäfer', 'Köhler', 'Becker', 'Dubois', 'Lefèvre', 'Bélanger',
    'Girard', 'Moreau', 'Mercier', 'Rousseau', 'Jørgensen', 'Søndergaard', 'Andersson', 'Lindqvist', 'Papadopoulos', 'Georgiou',
  ],
  abroad: ['Lisboa, Portugal', 'Porto, Portugal', 'Funchal, Madeira', 'Madrid, Spain', 'Sevilla, Spain', 'Lyon, France', 'Paris, France', 'Napoli, Italy', 'Milano, Italy', 'München, Germany', 'Köln, Germany', 'København, Denmark', 'Göteborg, Sweden', 'Bergen, Norway', 'Nicosia, Cyprus', 'Athína, Greece'],
  england: 2,
  wales: 1,
  early: 0.4,
};

const eastAsian: Community = {
  name: 'east asian',
  male: sameInEveryEra([
    'Wei', 'Jun', 'Hao', 'Jian', 'Ming', 'Kai', 'Chun', 'Ka-Ho', 'Chi-Wai', 'Kin-Man',
    'Hiroshi', 'Kenji', 'Takeshi', 'Minh', 'Tuan', 'Anh', 'Duc', 'Hoang',
  ]),
  female: sameInEveryEra([
    'Mei', 'Li', 'Xin', 'Ying', 'Yan', 'Hui', 'Jing', 'Lan', 'Wing-Yee', 'Ka-Yan',
    'Hoi-Yan', 'Yuki', 'Akiko', 'Hana', 'Linh', 'Thu', 'Mai', 'Ngoc',
  ]),
  surnames: [
    'Chen', 'Wang', 'Li', 'Zhang', 'Liu', 'Wong', 'Chan', 'Lee', 'Cheung', 'Lam',
    'Leung', 'Ng', 'Ho', 'Tang', 'Yip', 'Nguyen', 'Tran', 'Pham', 'Tanaka', 'Kim',
  ],
  abroad: ['Hong Kong', 'Kowloon, Hong Kong', 'Guangzhou, China', 'Shanghai, China', 'Beijing, China', 'Kuala Lumpur, Malaysia', 'Singapore', 'Ho Chi Minh City, Vietnam', 'Tokyo, Japan', 'Seoul, South Korea'],
  england: 1,
  wales: 0.5,
  early: 0.2,
};

const middleEastern: Community = {
  name: 'middle eastern and east african',
  male: sameInEveryEra([
    'Mohamed', 'Abdullahi', 'Abdirahman', 'Hassan', 'Hussein', 'Ahmed', 'Mustafa', 'Mehmet', 'Emre', 'Murat',
    'Yusuf', 'Karim', 'Khalid', 'Omar', 'Samir', 'Amir', 'Reza', 'Dara', 'Hamza', 'Kemal',
  ]),
  female: sameInEveryEra([
    'Fadumo', 'Hodan', 'Amina', 'Khadija', 'Sahra', 'Hawa', 'Ayşe', 'Elif', 'Zeynep', 'Fatma',
    'Layla', 'Noor', 'Mariam', 'Rania', 'Leila', 'Samira', 'Dina', 'Shirin', 'Hana', 'Yasmin',
  ]),
  surnames: [
    'Mohamed', 'Abdi', 'Ahmed', 'Hassan', 'Farah', 'Warsame', 'Jama', 'Osman', 'Yılmaz', 'Kaya',
    'Demir', 'Şahin', 'Çelik', 'Öztürk', 'Aydın', 'Arslan', 'Hosseini', 'Rahimi', 'Karimi', 'Haddad',
    'Khalil', 'Nasser', 'Saleh', 'Aziz', 'Hamid',
  ],
  abroad: ['Mogadishu, Somalia', 'Hargeisa, Somaliland', 'Istanbul, Turkey', 'İzmir, Turkey', 'Baghdad, Iraq', 'Erbil, Iraq', 'Tehran, Iran', 'Cairo, Egypt', 'Aden, Yemen', 'Khartoum, Sudan', 'Asmara, Eritrea'],
  england: 1.5,
  wales: 1,
  early: 0.15,
};

/** Every community, the first (English) the one used when a name is borrowed across communities. */
export const COMMUNITIES: readonly Community[] = [
  english,
  welsh,
  irishScottish,
  southAsian,
  africanCaribbean,
  easternEuropean,
  westernEuropean,
  eastAsian,
  middleEastern,
];

/**
 * Plausible surnames that none of the pools above holds (nor any join of
 * two of them): searches for them find nothing, for the misses of a search sample.
 */
export const MISS_SURNAMES: readonly string[] = [
  'Quarmby', 'Fothergill', 'Sowerbutts', 'Gledhill', 'Huddlestone', 'Wragg', 'Pennyfeather', 'Allsopp', 'Blenkinsop', 'Cattermole',
  'Dimmock', 'Eccleston', 'Fazakerley', 'Gathercole', 'Hollingworth', 'Illingworth', 'Jolliffe', 'Kettlewell', 'Loxley', 'Mottershead',
  'Nutter', 'Pickersgill', 'Rudd', 'Scattergood', 'Tattersall', 'Umpleby', 'Verity', 'Wadsworth', 'Yeadon', 'Attwood',
  'Bagshaw', 'Crossland', 'Duckworth', 'Earnshaw', 'Fairclough', 'Gillott', 'Hebblethwaite', 'Ingham', 'Jowett', 'Ketteridge',
];

/** Forms of address, for the rare records that state one. */
export const MALE_PREFIXES: readonly string[] = ['Mr', 'Mr', 'Mr', 'Dr', 'Revd', 'Sir'];
export const FEMALE_PREFIXES: readonly string[] = ['Mrs', 'Miss', 'Ms', 'Mrs', 'Dr', 'Revd'];
export const SUFFIXES: readonly string[] = ['Jr', 'Sr', 'II', 'III', 'MBE', 'OBE', 'BSc', 'MA', 'PhD', 'QC', 'JP'];
